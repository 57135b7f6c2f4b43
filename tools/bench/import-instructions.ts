import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { importProcessEnvironment } from './import-cost';

/**
 * The same `import()` as the timed measure, with nothing timed: the count of instructions is the
 * measure, and the whole process's count is what valgrind reports.
 */
const importer = 'await import(process.argv[1]);';

/** valgrind's callgrind prints `==<pid>== Collected : <n>` on stderr when the process ends. */
const collectedLine = /==\d+== Collected : (\d+)/;

/** The instructions callgrind reports in its closing lines, or undefined when it reported none. */
export function collectedInstructions(stderr: string): number | undefined {
  const match = collectedLine.exec(stderr);
  return match === null ? undefined : Number(match[1]);
}

/** Whether `valgrind` runs here (it is a Debian package, `valgrind`, not an npm one). */
export function valgrindAvailable(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('valgrind', ['--version'], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

/**
 * Runs a fresh Node (the one running this code) under valgrind's callgrind, which imports the
 * bundle once, and returns how many machine instructions the whole process executed, every thread
 * included. Node's own start-up and exit are the same for every bundle: the caller subtracts an
 * empty module's count. `--smc-check=all-non-file` makes valgrind follow the code V8 compiles.
 * V8's `--predictable` runs its compiling and collecting on the main thread at fixed points, so
 * the same import executes the same count to within a few thousand instructions; without it,
 * background threads made one empty import's count move by 14 million between processes.
 */
export function processInstructions(bundle: string, nodeOptions: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        '--callgrind-out-file=/dev/null',
        '--smc-check=all-non-file',
        process.execPath,
        '--predictable',
        '--input-type=module',
        '--eval',
        importer,
        pathToFileURL(bundle).href,
      ],
      { env: importProcessEnvironment(nodeOptions), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const instructions = collectedInstructions(stderr);
      if (code !== 0 || instructions === undefined) {
        const reason = stderr.split('\n').find((line) => !line.startsWith('==')) ?? '';
        reject(new Error(`counting the import of ${bundle} failed (exit ${code}): ${reason}`));
        return;
      }
      resolve(instructions);
    });
  });
}

/**
 * The instructions each bundle's import executes, net of an empty module's import: one process
 * per bundle, as many at once as the machine has cores, since a count under `--predictable` does
 * not change with the load or from one process to the next. Keys are the caller's names.
 */
export async function importInstructions(
  bundles: ReadonlyMap<string, string>,
  options: {
    readonly emptyBundle: string;
    readonly nodeOptions: string | undefined;
    readonly onDone?: (done: number, of: number) => void;
  },
): Promise<Map<string, number>> {
  const emptyKey = Symbol('empty');
  const jobs: readonly { readonly name: string | typeof emptyKey; readonly bundle: string }[] = [
    { name: emptyKey, bundle: options.emptyBundle },
    ...[...bundles].map(([name, bundle]) => ({ name, bundle })),
  ];
  const counts = new Map<string | typeof emptyKey, number>();
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next] as (typeof jobs)[number];
      next += 1;
      counts.set(job.name, await processInstructions(job.bundle, options.nodeOptions));
      options.onDone?.(counts.size, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), jobs.length) }, worker));
  const empty = counts.get(emptyKey) ?? 0;
  return new Map([...bundles.keys()].map((name) => [name, (counts.get(name) ?? 0) - empty]));
}
