import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { routeList } from '../../functions/routes';
import { functionEsbuildOptions } from '../constructs/function-esbuild-options';
import { functionBundling, projectRoot } from '../constructs/service-function';
import { authorizerHandlerModule } from '../stack';
import type { BenchContext } from './bench-context';
import { type BenchRow, type Budget, rowOf, Unit } from './bench-row';
import { functionNodeOptions } from './function-node-options';
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

const budgets = {
  route: { ratio: 'most', limit: 1.3 },
  authorizer: { ratio: 'most', limit: 1.1 },
  payPage: { value: 'most', limit: 60 * 1024 },
  init: { ratio: 'most', limit: 1.3 },
} as const satisfies Record<string, Budget>;

/**
 * Stand-ins for what the stack and Lambda set, given to every bundle alike: functions that read
 * their settings at module load (the delivery pipeline's) fail without them.
 */
const functionEnvironment = {
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'merchant-payments-bench',
  STAGE: 'sandbox',
  POWERTOOLS_SERVICE_NAME: 'merchant-payments',
  SECRETS_KEY_ID: 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-0000-0000-000000000000',
  DELIVERY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/merchant-payments-bench',
};

/**
 * Imports the bundle given as the first argument and prints how long the import took, measured
 * inside the fresh process so Node's own start-up is left out.
 */
const importTimer =
  'const started = performance.now(); await import(process.argv[1]); process.stdout.write(String(performance.now() - started));';

/**
 * Section 2: each function's bundle bytes and module-init time against a bare bundle that only
 * creates a document client, all bundled in one esbuild run with the stack's settings.
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
      ],
      outdir,
      // NodejsFunction names an ESM bundle index.mjs: Node needs the extension to load it as ESM.
      outExtension: { '.js': '.mjs' },
      logLevel: 'silent',
    });
    const bundleOf = (module: string) => join(outdir, `${module}.mjs`);
    const all = [bareModule, ...modules];
    const bytes = new Map<string, number>();
    for (const module of all) bytes.set(module, (await stat(bundleOf(module))).size);

    const nodeOptions = functionNodeOptions();
    const initMs = new Map<string, number[]>(all.map((module) => [module, []]));
    const processMs = new Map<string, number[]>(all.map((module) => [module, []]));
    for (let run = 0; run < context.runs; run += 1) {
      context.progress(`module init: run ${run + 1} of ${context.runs} over ${all.length} bundles`);
      // Each run starts at another function, so drift in the machine's load spreads over all of them.
      const order = all.map((_, index) => all[(index + run) % all.length] as string);
      for (const module of order) {
        const timing = await importInFreshNode(bundleOf(module), nodeOptions);
        initMs.get(module)?.push(timing.importMs);
        processMs.get(module)?.push(timing.processMs);
      }
    }

    const bareBytes = bytes.get(bareModule) ?? 0;
    const bareInit = median(initMs.get(bareModule) ?? []);
    const bareProcess = median(processMs.get(bareModule) ?? []);
    const rows: BenchRow[] = [];
    for (const module of modules) {
      const budget =
        module === authorizerHandlerModule
          ? budgets.authorizer
          : module === payPageHandlerModule
            ? budgets.payPage
            : budgets.route;
      rows.push(
        rowOf({
          section,
          figure: `${module} bytes`,
          value: bytes.get(module) ?? 0,
          baseline: bareBytes,
          unit: Unit.bytes,
          budget,
        }),
      );
    }
    for (const module of modules) {
      const process = median(processMs.get(module) ?? []);
      rows.push(
        rowOf({
          section,
          figure: `${module} init`,
          value: median(initMs.get(module) ?? []),
          baseline: bareInit,
          unit: Unit.ms,
          budget: budgets.init,
          note: `process ${Math.round(process)} ms vs ${Math.round(bareProcess)} ms`,
        }),
      );
    }
    return rows;
  } finally {
    removeOutdir();
    await rm(outdir, { recursive: true, force: true });
  }
}

/**
 * Starts a fresh Node (the one running the bench) with the functions' NODE_OPTIONS, which imports
 * the bundle once; returns the import time it measured and the whole process's time.
 */
function importInFreshNode(
  bundle: string,
  nodeOptions: string | undefined,
): Promise<{ importMs: number; processMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ['--input-type=module', '--eval', importTimer, pathToFileURL(bundle).href],
      {
        env: {
          PATH: process.env.PATH ?? '',
          ...functionEnvironment,
          ...(nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const processMs = performance.now() - started;
      const importMs = Number(stdout);
      if (code !== 0 || !Number.isFinite(importMs)) {
        reject(new Error(`importing ${bundle} failed (exit ${code}): ${stderr.split('\n')[0] ?? ''}`));
        return;
      }
      resolve({ importMs, processMs });
    });
  });
}
