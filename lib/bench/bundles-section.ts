import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { routeList } from '../../functions/routes';
import { functionEsbuildOptions } from '../constructs/function-esbuild-options';
import { functionBundling, projectRoot } from '../constructs/service-function';
import { authorizerHandlerModule } from '../stack';
import type { BenchContext } from './bench-context';
import { type BenchRow, NoBudget, rowOf, Unit } from './bench-row';
import { bundleBudgets, cpuBudgetOf } from './bundle-budgets';
import { functionNodeOptions } from './function-node-options';
import { interleavedImportCosts } from './import-cost';
import { median } from './statistics';

const section = 'bundles';

/** The functions of the delivery pipeline (lib/constructs/delivery-pipeline.ts). */
const deliveryHandlerModules = [
  'delivery/router-handler',
  'delivery/dispatcher-handler',
  'delivery/reconciler-handler',
];
const payPageHandlerModule = 'pay/serve-pay-page';
const bareModule = 'bare';
const bareEntry = join(projectRoot, 'lib', 'bench', 'bare-function.ts');
const floorModule = 'library-floor';
const floorEntry = join(projectRoot, 'lib', 'bench', 'library-floor-function.ts');

/**
 * Section 2: each function's import CPU time (what a cold start pays) and bundle bytes against a
 * bare bundle that only creates a document client (and the libraries' floor against the same), all bundled in one esbuild run with the
 * stack's settings. Why the budgets are what they are: `docs/performance.md#bundle-budgets`.
 */
export async function bundlesSection(context: BenchContext): Promise<BenchRow[]> {
  const modules = [
    authorizerHandlerModule,
    ...new Set(routeList.map((route) => route.handler)),
    ...deliveryHandlerModules,
  ];
  const outdir = await mkdtemp(join(tmpdir(), 'merchant-payments-bench-bundles-'));
  const removeOutdir = context.onStop(() => rm(outdir, { recursive: true, force: true }));
  try {
    context.progress(`bundling ${modules.length} functions and the bare baseline`);
    await build({
      ...functionEsbuildOptions(functionBundling, { sourceMaps: true }),
      absWorkingDir: projectRoot,
      entryPoints: [
        ...modules.map((module) => ({ in: join('functions', `${module}.ts`), out: module })),
        { in: relative(projectRoot, bareEntry), out: bareModule },
        { in: relative(projectRoot, floorEntry), out: floorModule },
      ],
      outdir,
      // NodejsFunction names an ESM bundle index.mjs: Node needs the extension to load it as ESM.
      outExtension: { '.js': '.mjs' },
      logLevel: 'silent',
    });
    const all = [bareModule, floorModule, ...modules];
    const bundles = new Map(all.map((module) => [module, join(outdir, `${module}.mjs`)]));
    const bytes = new Map<string, number>();
    for (const [module, bundle] of bundles) bytes.set(module, (await stat(bundle)).size);

    const costs = await interleavedImportCosts(bundles, {
      runs: context.runs,
      nodeOptions: functionNodeOptions(),
      onRun: (run) =>
        context.progress(`import CPU: run ${run + 1} of ${context.runs} over ${all.length} bundles`),
    });
    const medianOf = (module: string, measure: 'cpuMs' | 'importMs' | 'processMs') =>
      median((costs.get(module) ?? []).map((cost) => cost[measure]));

    const bareBytes = bytes.get(bareModule) ?? 0;
    const bareCpu = medianOf(bareModule, 'cpuMs');
    const bareImport = medianOf(bareModule, 'importMs');
    const bareProcess = medianOf(bareModule, 'processMs');
    // The named libraries' share of every route's budget, measured beside the routes: no budget of
    // its own, it says how much of a route's import the design's libraries take before our code.
    const rows: BenchRow[] = [
      rowOf({
        section,
        figure: 'library floor import CPU',
        value: medianOf(floorModule, 'cpuMs'),
        baseline: bareCpu,
        unit: Unit.ms,
        budget: NoBudget,
        note: `the bare function with middy, a Powertools logger and a zod/mini body schema, ${bytes.get(floorModule) ?? 0} bytes`,
      }),
    ];
    for (const module of modules) {
      rows.push(
        rowOf({
          section,
          figure: `${module} import CPU`,
          value: medianOf(module, 'cpuMs'),
          baseline: bareCpu,
          unit: Unit.ms,
          budget: { ratio: 'most', limit: cpuBudgetOf(module) },
          note: `import ${Math.round(medianOf(module, 'importMs'))} ms vs ${Math.round(bareImport)} ms, process ${Math.round(medianOf(module, 'processMs'))} ms vs ${Math.round(bareProcess)} ms`,
        }),
      );
    }
    for (const module of modules) {
      rows.push(
        rowOf({
          section,
          figure: `${module} bytes`,
          value: bytes.get(module) ?? 0,
          baseline: bareBytes,
          unit: Unit.bytes,
          budget:
            module === payPageHandlerModule
              ? { value: 'most', limit: bundleBudgets.payPageBytes }
              : { ratio: 'most', limit: bundleBudgets.bytesRatio },
        }),
      );
    }
    return rows;
  } finally {
    removeOutdir();
    await rm(outdir, { recursive: true, force: true });
  }
}
