import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { routeList, routes } from '../../functions/routes';
import { functionEsbuildOptions } from '../../lib/constructs/function-esbuild-options';
import { functionBundling, ServiceFunction } from '../../lib/constructs/service-function';
import { authorizerHandlerModule, buildApp } from '../../lib/stack';
import { testApp } from './template';

/**
 * Each function's bundle holds only what that function runs (DESIGN §2): a route handler reaches
 * its own resource's routes and schemas, never another's and never the assembled route table; and
 * each stays within its byte budget, measured against a function that only creates the DynamoDB
 * document client. Bundled with the stack's settings, without source maps, all entry points in one
 * esbuild run so the shared module graph is parsed once.
 */

/** Every function the stack deploys in either stage, read from the constructed stacks themselves. */
function deployedHandlerModules(): string[] {
  const modules = new Set<string>();
  for (const stage of Object.values(Stage)) {
    const { stack } = buildApp(stage, { app: testApp() });
    for (const construct of stack.node.findAll()) {
      if (construct instanceof ServiceFunction) modules.add(construct.handlerModule);
    }
  }
  return [...modules].sort();
}

const handlerModules = deployedHandlerModules();
const routeModules = new Set(routeList.map((route) => route.handler));
const payPageModule = routes.servePayPage.handler;

/** The yardstick: its bundle is the AWS SDK's DynamoDB client and nothing of ours. */
const bareModule = 'bare-function';
const bareEntry = `lib/bench/${bareModule}.ts`;

/**
 * Budgets as a multiple of the bare function, or in bytes for the pay page (no SDK at all). Bytes are a
 * guard only (docs/decisions.md "Validation on zod/mini"): routes, the delivery pipeline and the
 * authorizer (its settings) carry zod/mini; the authorizer's import CPU is what holds it to 1.1×.
 */
const routeRatio = 1.5;
const authorizerRatio = 1.5;
const pipelineRatio = 1.5;
const payPageBytes = 60_000;

type Budget = { readonly ratio: number } | { readonly bytes: number };

function budgetOf(module: string): Budget {
  if (module === payPageModule) return { bytes: payPageBytes };
  if (module === authorizerHandlerModule) return { ratio: authorizerRatio };
  if (routeModules.has(module)) return { ratio: routeRatio };
  return { ratio: pipelineRatio };
}

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

interface Bundle {
  readonly bytes: number;
  readonly inputs: readonly string[];
}

function sizeTable(bundles: ReadonlyMap<string, Bundle>, bareBytes: number): string {
  const width = Math.max(...[...bundles.keys()].map((module) => module.length));
  const rows = [...bundles].map(([module, { bytes }]) => {
    const budget = budgetOf(module);
    const limit = 'ratio' in budget ? `≤ ${budget.ratio}×` : `≤ ${budget.bytes} B`;
    return `${module.padEnd(width)}  ${String(bytes).padStart(9)}  ${(bytes / bareBytes).toFixed(3)}×  ${limit}`;
  });
  return [`${'bare DynamoDB client'.padEnd(width)}  ${String(bareBytes).padStart(9)}  1.000×`, ...rows].join(
    '\n',
  );
}

describe('function bundles', () => {
  const bundles = new Map<string, Bundle>();
  let bareBytes = 0;

  beforeAll(async () => {
    const result = await build({
      ...functionEsbuildOptions(functionBundling, { sourceMaps: false }),
      entryPoints: [
        { in: bareEntry, out: bareModule },
        ...handlerModules.map((module) => ({ in: `functions/${module}.ts`, out: module })),
      ],
      outdir: 'bundles',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs: Metafile['outputs'] = result.metafile.outputs;
    for (const output of Object.values(outputs)) {
      if (output.entryPoint === bareEntry) bareBytes = output.bytes;
      const module = output.entryPoint?.replace(/^functions\/(.*)\.ts$/, '$1');
      if (module === undefined || module === output.entryPoint) continue;
      bundles.set(module, { bytes: output.bytes, inputs: Object.keys(output.inputs) });
    }
    console.info(`Function bundles (minified ESM, no source map)\n${sizeTable(bundles, bareBytes)}`);
  }, 180_000);

  it('bundles every function the stack deploys: the authorizer, every route and the delivery pipeline', () => {
    expect([...bundles.keys()].sort()).toEqual(handlerModules);
    expect(handlerModules).toEqual(
      expect.arrayContaining([
        authorizerHandlerModule,
        ...routeModules,
        'delivery/router-handler',
        'delivery/dispatcher-handler',
        'delivery/reconciler-handler',
      ]),
    );
    expect(bareBytes).toBeGreaterThan(0);
  });

  it.each(handlerModules)('%s stays within its byte budget', (module) => {
    const { bytes } = bundles.get(module) ?? { bytes: Number.NaN };
    const budget = budgetOf(module);
    const limit = 'ratio' in budget ? Math.floor(budget.ratio * bareBytes) : budget.bytes;
    expect(
      bytes,
      `${module}: ${bytes} bytes, ${(bytes / bareBytes).toFixed(3)}× the bare function`,
    ).toBeLessThanOrEqual(limit);
  });

  // Every other function reads its settings or requests with zod/mini; the pay page validates nothing.
  it.each([payPageModule])('%s carries no zod', (module) => {
    expect(bundles.get(module)?.inputs.filter((input) => input.includes('node_modules/zod/'))).toEqual([]);
  });

  it.each(handlerModules)(
    '%s carries no other resource’s routes or schemas, nor the route table',
    (module) => {
      expect(foreignRouteModules(module, bundles.get(module)?.inputs ?? [])).toEqual([]);
    },
  );

  it.each(handlerModules.filter((module) => resourceOf(module) !== undefined))(
    '%s carries its own resource’s routes',
    (module) => {
      expect(bundles.get(module)?.inputs).toContain(`functions/api/${resourceOf(module)}/routes.ts`);
    },
  );
});
