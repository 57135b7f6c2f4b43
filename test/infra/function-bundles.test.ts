import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { routeList, routes } from '../../functions/routes';
import { functionEsbuildOptions } from '../../lib/constructs/function-esbuild-options';
import { functionBundling, ServiceFunction } from '../../lib/constructs/service-function';
import { authorizerHandlerModule, buildApp } from '../../lib/stack';
import { bundleBudgets, bytesBudgetOf, stripeHandlerModules } from '../../tools/bench/bundle-budgets';
import { benchedModules } from '../../tools/bench/bundles-section';
import { functionNodeOptions } from '../../tools/bench/function-node-options';
import { importInFreshNode } from '../../tools/bench/import-cost';
import { printInReport } from '../support/log-capture';
import { testApp } from './template';

/**
 * Each function's bundle holds only what that function runs
 * (docs/decisions/route-definitions-per-resource.md): a route handler reaches its own resource's routes and
 * schemas, never another's and never the assembled route table, and no bundle carries classic zod or zod's
 * locales. Each stays under its byte ceiling against a function that only creates the DynamoDB document
 * client. The budgets themselves are on import CPU time, which the bench measures: a timed check here
 * would fail on the machine's load, not on the code (docs/performance.md "Bundle budgets").
 * Bundled with the stack's settings, without source maps, all entry points in one esbuild run so
 * the shared module graph is parsed once.
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
const bareEntry = `tools/bench/${bareModule}.ts`;

/** The byte ceiling: a ratio to the bare function, or an absolute size for the pay page (no SDK). */
function byteCeilingOf(module: string, bareBytes: number): number {
  if (module === payPageModule) return bundleBudgets.payPageBytes;
  return Math.floor(bytesBudgetOf(module) * bareBytes);
}

const stripeSdk = /(?:^|\/)node_modules\/stripe\//;

/**
 * Classic zod (v4's and v3's) and zod's locales (264 KB, shipped whole when anything reaches the
 * `locales` export): only the tree-shaken `zod/mini` core may ship, worded by the service's own map.
 */
const heavyZod = /node_modules\/zod\/(?:v3|v4\/classic|v4\/locales)\//;

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
    const limit =
      module === payPageModule ? `≤ ${bundleBudgets.payPageBytes} B` : `≤ ${bytesBudgetOf(module)}×`;
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
    printInReport(`Function bundles (minified ESM, no source map)\n${sizeTable(bundles, bareBytes)}`);
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

  it('is measured by the bench, every function the stack deploys, against its import CPU budget', () => {
    expect([...benchedModules()].sort()).toEqual(handlerModules);
  });

  it.each(handlerModules)('%s stays under its byte ceiling', (module) => {
    const { bytes } = bundles.get(module) ?? { bytes: Number.NaN };
    expect(
      bytes,
      `${module}: ${bytes} bytes, ${(bytes / bareBytes).toFixed(3)}× the bare function`,
    ).toBeLessThanOrEqual(byteCeilingOf(module, bareBytes));
  });

  it('carries the Stripe SDK only in the functions that call Stripe', () => {
    const carrying = [...bundles].filter(([, bundle]) =>
      bundle.inputs.some((input) => stripeSdk.test(input)),
    );
    expect(carrying.map(([module]) => module).sort()).toEqual([...stripeHandlerModules].sort());
  });

  it.each(handlerModules)('%s carries neither classic zod nor zod’s locales', (module) => {
    expect(bundles.get(module)?.inputs.filter((input) => heavyZod.test(input))).toEqual([]);
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

/**
 * The functions that are no route read their own settings when imported (a queue URL, the sending
 * address) and throw without them: the bench imports every bundle with its stand-ins for what the
 * stack sets (tools/bench/import-cost.ts), so a setting a function starts to require must get one
 * there, or the bench's bundles section cannot run.
 */
describe('the functions that are no route, under the bench’s stand-in settings', () => {
  const modules = handlerModules.filter((module) => resourceOf(module) === undefined);
  mkdirSync('test-results', { recursive: true });
  const outdir = mkdtempSync(join('test-results', 'function-bundles-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('each import in a fresh Node', async () => {
    await build({
      ...functionEsbuildOptions(functionBundling, { sourceMaps: false }),
      entryPoints: modules.map((module) => ({ in: `functions/${module}.ts`, out: module })),
      outdir,
      outExtension: { '.js': '.mjs' },
      logLevel: 'silent',
    });
    const nodeOptions = functionNodeOptions();
    const failed: string[] = [];
    for (const module of modules) {
      await importInFreshNode(join(outdir, `${module}.mjs`), nodeOptions).catch(() => failed.push(module));
    }
    expect(modules).toContain('email/mailer-handler');
    expect(failed).toEqual([]);
  }, 120_000);
});
