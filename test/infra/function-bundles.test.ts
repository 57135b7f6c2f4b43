import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../functions/routes';
import { functionEsbuildOptions } from '../../lib/constructs/function-esbuild-options';
import { functionBundling } from '../../lib/constructs/service-function';
import { authorizerHandlerModule } from '../../lib/stack';

/**
 * Each function's bundle holds only what that function runs (DESIGN §2): a route handler reaches
 * its own resource's routes and schemas, never another's and never the assembled route table.
 * Bundled with the stack's settings, without source maps, all entry points in one esbuild run so
 * the shared module graph is parsed once.
 */
const handlerModules = [authorizerHandlerModule, ...new Set(routeList.map((route) => route.handler))];

const routeTable = 'functions/routes.ts';
const resourceModule = /^functions\/api\/([^/]+)\/(routes|schemas)\.ts$/;

/** `api/<resource>/…` handlers belong to that resource; any other function owns no route module. */
function resourceOf(handlerModule: string): string | undefined {
  return /^api\/([^/]+)\//.exec(handlerModule)?.[1];
}

function foreignRouteModules(handlerModule: string, inputs: readonly string[]): string[] {
  const own = resourceOf(handlerModule);
  return inputs.filter((input) => {
    if (input === routeTable) return true;
    const match = resourceModule.exec(input);
    return match !== null && match[1] !== own;
  });
}

describe('function bundles', () => {
  const inputsByHandler = new Map<string, string[]>();

  beforeAll(async () => {
    const result = await build({
      ...functionEsbuildOptions(functionBundling, { sourceMaps: false }),
      entryPoints: handlerModules.map((module) => ({ in: `functions/${module}.ts`, out: module })),
      outdir: 'bundles',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs: Metafile['outputs'] = result.metafile.outputs;
    for (const output of Object.values(outputs)) {
      const module = output.entryPoint?.replace(/^functions\/(.*)\.ts$/, '$1');
      if (module !== undefined) inputsByHandler.set(module, Object.keys(output.inputs));
    }
  }, 120_000);

  it('bundles every route handler and the authorizer', () => {
    expect([...inputsByHandler.keys()].sort()).toEqual([...handlerModules].sort());
  });

  it.each(handlerModules)(
    '%s carries no other resource’s routes or schemas, nor the route table',
    (module) => {
      expect(foreignRouteModules(module, inputsByHandler.get(module) ?? [])).toEqual([]);
    },
  );

  it.each(handlerModules.filter((module) => resourceOf(module) !== undefined))(
    '%s carries its own resource’s routes',
    (module) => {
      expect(inputsByHandler.get(module)).toContain(`functions/api/${resourceOf(module)}/routes.ts`);
    },
  );
});
