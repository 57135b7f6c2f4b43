import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { writePayPageModule } from '../../functions/pay/build-pay-page';
import { writePortalPageModule } from '../../functions/portal/build-portal-page';
import { routeList } from '../../functions/routes';
import { functionEsbuildOptions } from '../../lib/constructs/function-esbuild-options';
import { functionBundling, projectRoot } from '../../lib/constructs/service-function';
import { authorizerHandlerModule } from '../../lib/stack';
import { UsageError } from '../cli/command-failure';
import type { BenchContext } from './bench-context';
import type { ImportMeasure } from './bench-options';
import { type BenchRow, NoBudget, rowOf, Unit } from './bench-row';
import { bundleBudgets, bytesBudgetOf, cpuBudgetOf } from './bundle-budgets';
import { functionNodeOptions } from './function-node-options';
import { type ImportCost, interleavedImportCosts } from './import-cost';
import { importInstructions, valgrindAvailable } from './import-instructions';
import { median } from './statistics';

const section = 'bundles';

/** The functions of the delivery pipeline (lib/constructs/delivery-pipeline.ts). */
const deliveryHandlerModules = [
  'delivery/router-handler',
  'delivery/dispatcher-handler',
  'delivery/reconciler-handler',
];
/** The functions of the customer emails (lib/constructs/email-pipeline.ts). */
const emailHandlerModules = ['email/mailer-handler', 'email/ses-events-handler'];
const payPageHandlerModule = 'pay/serve-pay-page';
const bareModule = 'bare';
const bareEntry = join(projectRoot, 'tools', 'bench', 'bare-function.ts');
const floorModule = 'library-floor';
const floorEntry = join(projectRoot, 'tools', 'bench', 'library-floor-function.ts');

/**
 * The measure the import CPU budgets judge: as asked, else instructions where valgrind runs. A
 * missing valgrind is said once, since the timed medians then carry the run-to-run noise.
 */
async function importMeasureOf(context: BenchContext): Promise<ImportMeasure> {
  const available = await valgrindAvailable();
  if (context.importCpu === 'instructions' && !available) {
    throw new Error('--import-cpu instructions needs valgrind on the PATH (apt-get install valgrind)');
  }
  if (context.importCpu !== undefined) return context.importCpu;
  if (!available) {
    context.progress('valgrind not found: import CPU is timed, a median that moves ±0.05× between runs');
  }
  return available ? 'instructions' : 'time';
}

/**
 * Section 2: each function's import CPU time (what a cold start pays) and bundle bytes against a
 * bare bundle that only creates a document client (and the libraries' floor against the same), all bundled in one esbuild run with the
 * stack's settings. Why the budgets are what they are: `docs/performance.md#bundle-budgets`.
 */
export async function bundlesSection(context: BenchContext): Promise<BenchRow[]> {
  const modules = selectedModules(context.functions);
  const outdir = await mkdtemp(join(tmpdir(), 'merchant-payments-bench-bundles-'));
  const removeOutdir = context.onStop(() => rm(outdir, { recursive: true, force: true }));
  try {
    context.progress(`bundling ${modules.length} functions and the bare baseline`);
    // The pay page's and the portal's functions import the pages built from their sources, as the
    // stack builds them first.
    await Promise.all([writePayPageModule(), writePortalPageModule()]);
    const bundles = await bundleFunctions(modules, outdir);
    const bytes = new Map<string, number>();
    for (const [module, bundle] of bundles) bytes.set(module, (await stat(bundle)).size);

    const costs = await interleavedImportCosts(bundles, {
      runs: context.runs,
      nodeOptions: functionNodeOptions(),
      onRun: (run) =>
        context.progress(`import CPU: run ${run + 1} of ${context.runs} over ${bundles.size} bundles`),
    });
    const counts =
      (await importMeasureOf(context)) === 'instructions'
        ? await countedImports(context, bundles, outdir)
        : undefined;
    const figures = importFigures(costs, counts, context.runs);
    return [...importRows(modules, figures, bytes), ...bytesRows(modules, bytes)];
  } finally {
    removeOutdir();
    await rm(outdir, { recursive: true, force: true });
  }
}

/**
 * Every function the stack deploys, as the bench measures them: the authorizer, the routes, the
 * delivery pipeline and the customer emails (`test/infra/function-bundles.test.ts` holds the list
 * to the stack's own).
 */
export function benchedModules(): string[] {
  return [
    authorizerHandlerModule,
    ...new Set(routeList.map((route) => route.handler)),
    ...deliveryHandlerModules,
    ...emailHandlerModules,
  ];
}

/** Every function of the stack, or those `--function` named, each checked to be one. */
function selectedModules(functions: readonly string[]): string[] {
  const all = benchedModules();
  const unknown = functions.find((module) => !all.includes(module));
  if (unknown !== undefined) {
    throw new UsageError(
      `--function "${unknown}" is not a function of the stack: it must be one of ${all.join(', ')}.`,
    );
  }
  return functions.length === 0 ? all : all.filter((module) => functions.includes(module));
}

/** The functions, the bare baseline and the library floor, bundled in one esbuild run: bundle by name. */
async function bundleFunctions(modules: readonly string[], outdir: string): Promise<Map<string, string>> {
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
  return new Map(all.map((module) => [module, join(outdir, `${module}.mjs`)]));
}

async function countedImports(
  context: BenchContext,
  bundles: ReadonlyMap<string, string>,
  outdir: string,
): Promise<Map<string, number>> {
  const emptyBundle = join(outdir, 'empty.mjs');
  await writeFile(emptyBundle, 'export {};\n');
  return importInstructions(bundles, {
    emptyBundle,
    nodeOptions: functionNodeOptions(),
    onDone: (done, of) => {
      if (done % 10 === 0 || done === of) context.progress(`import instructions: ${done} of ${of} processes`);
    },
  });
}

/** The medians of the timed imports, and the budgeted figure of each module's import. */
function importFigures(
  costs: ReadonlyMap<string, readonly ImportCost[]>,
  counts: ReadonlyMap<string, number> | undefined,
  runs: number,
) {
  const medianOf = (module: string, measure: 'cpuMs' | 'importMs' | 'processMs') =>
    median((costs.get(module) ?? []).map((cost) => cost[measure]));
  // The same ratio over the even and the odd runs apart: how far this run's own samples let the
  // figure move, printed beside it so a reader sees the measure's noise next to the margin.
  const halfRatiosOf = (module: string) =>
    runs < 2
      ? 'need 2 runs'
      : [0, 1]
          .map((half) => {
            const ofHalf = (name: string) =>
              median((costs.get(name) ?? []).filter((_, run) => run % 2 === half).map((cost) => cost.cpuMs));
            return `${(ofHalf(module) / ofHalf(bareModule)).toFixed(2)}×`;
          })
          .join('/');
  const bareCpu = medianOf(bareModule, 'cpuMs');
  const timed = (module: string) =>
    `${Math.round(medianOf(module, 'cpuMs'))} ms vs ${Math.round(bareCpu)} ms, halves ${halfRatiosOf(module)}`;
  /** The budgeted figure of a module's import: its instructions where counted, else its CPU time. */
  const importCpuOf = (module: string) =>
    counts === undefined
      ? {
          value: medianOf(module, 'cpuMs'),
          baseline: bareCpu,
          unit: Unit.ms,
          note: `halves ${halfRatiosOf(module)}`,
        }
      : {
          value: counts.get(module) ?? 0,
          baseline: counts.get(bareModule) ?? 0,
          unit: Unit.instructions,
          note: `timed ${timed(module)}`,
        };
  return {
    medianOf,
    importCpuOf,
    bareImport: medianOf(bareModule, 'importMs'),
    bareProcess: medianOf(bareModule, 'processMs'),
  };
}

/** The library floor's import (no budget), then each function's against its budget. */
function importRows(
  modules: readonly string[],
  { medianOf, importCpuOf, bareImport, bareProcess }: ReturnType<typeof importFigures>,
  bytes: ReadonlyMap<string, number>,
): BenchRow[] {
  // The named libraries' share of every route's budget, measured beside the routes: no budget of
  // its own, it says how much of a route's import the design's libraries take before our code.
  const rows: BenchRow[] = [
    rowOf({
      section,
      figure: 'library floor import CPU',
      ...importCpuOf(floorModule),
      budget: NoBudget,
      note: `${importCpuOf(floorModule).note}; the bare function with middy, a Powertools logger and a zod/mini body schema, ${bytes.get(floorModule) ?? 0} bytes`,
    }),
  ];
  for (const module of modules) {
    const figure = importCpuOf(module);
    rows.push(
      rowOf({
        section,
        figure: `${module} import CPU`,
        ...figure,
        budget: { ratio: 'most', limit: cpuBudgetOf(module) },
        note: `${figure.note}, import ${Math.round(medianOf(module, 'importMs'))} ms vs ${Math.round(bareImport)} ms, process ${Math.round(medianOf(module, 'processMs'))} ms vs ${Math.round(bareProcess)} ms`,
      }),
    );
  }
  return rows;
}

function bytesRows(modules: readonly string[], bytes: ReadonlyMap<string, number>): BenchRow[] {
  const bareBytes = bytes.get(bareModule) ?? 0;
  return modules.map((module) =>
    rowOf({
      section,
      figure: `${module} bytes`,
      value: bytes.get(module) ?? 0,
      baseline: bareBytes,
      unit: Unit.bytes,
      budget:
        module === payPageHandlerModule
          ? { value: 'most', limit: bundleBudgets.payPageBytes }
          : { ratio: 'most', limit: bytesBudgetOf(module) },
    }),
  );
}
