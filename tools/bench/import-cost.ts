import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** What one fresh Node process paid to import a bundle. */
export interface ImportCost {
  /** CPU time (user + system, every thread of the process) spent in the `import()`. */
  readonly cpuMs: number;
  /** Wall time of the `import()`, measured inside the process. */
  readonly importMs: number;
  /** Wall time of the whole process, start-up and exit included, seen from outside. */
  readonly processMs: number;
}

/**
 * Stand-ins for what the stack and Lambda set, given to every bundle alike: functions that read
 * their settings at module load (the delivery pipeline's) fail without them.
 */
export const functionEnvironment: Readonly<Record<string, string>> = {
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'merchant-payments-bench',
  STAGE: 'sandbox',
  POWERTOOLS_SERVICE_NAME: 'merchant-payments',
  SECRETS_KEY_ID: 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-0000-0000-000000000000',
  DELIVERY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/merchant-payments-bench',
  MAIL_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/merchant-payments-bench-mail',
  EMAIL_DELIVERY: 'ses',
  EMAIL_FROM_ADDRESS: 'invoices@payments.example.com',
  PUBLIC_BASE_URL: 'https://api.payments.example.com',
};

/** What a fresh process that imports a bundle runs with: the stand-ins above and the functions' NODE_OPTIONS. */
export function importProcessEnvironment(nodeOptions: string | undefined): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    ...functionEnvironment,
    ...(nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions }),
  };
}

/**
 * Imports the bundle given as the first argument and prints the CPU and wall time of that import,
 * measured inside the fresh process so Node's own start-up, the same for every bundle, is left out.
 */
const importTimer = [
  'const cpu = process.cpuUsage();',
  'const started = performance.now();',
  'await import(process.argv[1]);',
  'const importMs = performance.now() - started;',
  'const used = process.cpuUsage(cpu);',
  'process.stdout.write(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, importMs }));',
].join(' ');

/**
 * Starts a fresh Node (the one running this code) with the functions' NODE_OPTIONS, which imports
 * the bundle once, and returns what the import cost.
 */
export function importInFreshNode(bundle: string, nodeOptions: string | undefined): Promise<ImportCost> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ['--input-type=module', '--eval', importTimer, pathToFileURL(bundle).href],
      { env: importProcessEnvironment(nodeOptions), stdio: ['ignore', 'pipe', 'pipe'] },
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
      let measured: { cpuMs?: unknown; importMs?: unknown } = {};
      try {
        measured = JSON.parse(stdout);
      } catch {}
      const { cpuMs, importMs } = measured;
      if (code !== 0 || typeof cpuMs !== 'number' || typeof importMs !== 'number') {
        reject(new Error(`importing ${bundle} failed (exit ${code}): ${stderr.split('\n')[0] ?? ''}`));
        return;
      }
      resolve({ cpuMs, importMs, processMs });
    });
  });
}

/**
 * Imports each bundle `runs` times, one fresh process at a time, interleaved: every run imports
 * each bundle once, starting at another one each run, so a change in the machine's load falls on
 * all of them alike (`docs/decisions/the-bench.md`). Keys are the caller's names.
 */
export async function interleavedImportCosts(
  bundles: ReadonlyMap<string, string>,
  options: {
    readonly runs: number;
    readonly nodeOptions: string | undefined;
    readonly onRun?: (run: number) => void;
  },
): Promise<Map<string, ImportCost[]>> {
  const names = [...bundles.keys()];
  const costs = new Map<string, ImportCost[]>(names.map((name) => [name, []]));
  for (let run = 0; run < options.runs; run += 1) {
    options.onRun?.(run);
    for (let step = 0; step < names.length; step += 1) {
      const name = names[(step + run) % names.length] as string;
      costs.get(name)?.push(await importInFreshNode(bundles.get(name) as string, options.nodeOptions));
    }
  }
  return costs;
}
