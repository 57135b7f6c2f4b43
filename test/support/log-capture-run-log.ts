import type { ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Environment variable naming the run log; the global setup sets it before workers fork. */
export const RunLogVariable = 'TEST_RUN_LOG';

const runLogFolder = 'test-results/logs';
/** Run logs older than this belong to no run still going, and are removed when a run starts. */
const keepRunLogsMs = 24 * 60 * 60 * 1000;

/**
 * The run log of this vitest run: every line the service writes while tests run, from every
 * worker and from the `npm start` child process, so one scan can check them all (docs/decisions/logs.md).
 */
export function runLogPath(): string {
  const path = process.env[RunLogVariable];
  if (path === undefined || path === '')
    throw new Error(`${RunLogVariable} is not set: run the tests through vitest.config.ts (npx vitest run)`);
  return path;
}

/**
 * Creates the run log and names it in the environment the workers will inherit. Each run gets a
 * file of its own, as two runs in one checkout (a watcher and a full run) would otherwise empty and
 * interleave each other's; a path already set in the environment is used as is (emptied).
 */
export function startRunLog(now = new Date()): string {
  const given = process.env[RunLogVariable];
  const stamp = now.toISOString().replaceAll(/[-:]|\.\d+/g, '');
  const path = resolve(given || join(runLogFolder, `run-${stamp}-${process.pid}.log`));
  mkdirSync(dirname(path), { recursive: true });
  if (!given) removeOldRunLogs(dirname(path), now);
  writeFileSync(path, '');
  process.env[RunLogVariable] = path;
  return path;
}

function removeOldRunLogs(folder: string, now: Date): void {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (/^run-.*\.log$/.test(name) && now.getTime() - statSync(path).mtimeMs > keepRunLogsMs) rmSync(path);
  }
}

export interface RunLogWriter {
  /** Appends the complete lines of `text`; a trailing partial line waits for its end. */
  write(text: string): void;
  /** Appends the partial line still waiting, if any. */
  flush(): void;
}

/**
 * Appends what one source writes to the run log, one line per line, each tagged
 * `[<source> <test file>]`. Appends are synchronous so nothing is lost when a worker exits, and
 * whole lines at a time so a secret split across two writes is still one line for the scan.
 */
export function runLogWriter(source: string, testFile: string | undefined): RunLogWriter {
  const path = runLogPath();
  const tag = `[${source} ${testFile === undefined ? '-' : relative(process.cwd(), testFile)}] `;
  let pending = '';
  const append = (lines: string[]) => {
    if (lines.length > 0) appendFileSync(path, lines.map((line) => `${tag}${line}\n`).join(''));
  };
  return {
    write: (text) => {
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      append(lines);
    },
    flush: () => {
      if (pending !== '') append([pending]);
      pending = '';
    },
  };
}

/** Copies a child process's stdout and stderr to the run log as they arrive. */
export function captureChildOutput(child: ChildProcess, source: string, testFile: string): void {
  const writers = [
    [child.stdout, runLogWriter(`${source} stdout`, testFile)],
    [child.stderr, runLogWriter(`${source} stderr`, testFile)],
  ] as const;
  for (const [stream, writer] of writers) stream?.on('data', (chunk) => writer.write(String(chunk)));
  child.once('close', () => {
    for (const [, writer] of writers) writer.flush();
  });
}
