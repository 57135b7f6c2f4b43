import { format } from 'node:util';
import { afterAll, expect } from 'vitest';
import { type RunLogWriter, runLogWriter } from './log-capture-run-log';

/**
 * Setup file of every test worker: sends what the worker prints to the run log (see `runLogPath`)
 * instead of the terminal, on both paths output takes (docs/decisions/tests-of-the-payments-slice.md).
 */
const testFile = expect.getState().testPath;
const writers: RunLogWriter[] = [];

/** Vitest's own `console.info`, which shows a line in its report. */
const reportInfo = console.info.bind(console);
const reportWriter = runLogWriter('report', testFile);
writers.push(reportWriter);

/**
 * Shows `text` in vitest's report, for what a test means its reader to see (a table of figures);
 * the run log gets it too, so the scan reads everything a worker printed.
 */
export function printInReport(text: string): void {
  reportWriter.write(`${text}\n`);
  reportInfo(text);
}

for (const name of ['stdout', 'stderr'] as const) {
  const stream = process[name];
  const writer = runLogWriter(name, testFile);
  writers.push(writer);
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    writer.write(typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk));
    // A writer that waits for its callback (Node's Console passes one) gets it, as from a stream.
    const callback = rest.find((argument) => typeof argument === 'function');
    if (callback !== undefined) process.nextTick(callback as () => void);
    return true;
  }) as typeof stream.write;
}

for (const method of ['debug', 'info', 'log', 'warn', 'error'] as const) {
  const writer = runLogWriter(`console.${method}`, testFile);
  writers.push(writer);
  console[method] = (...args: unknown[]) => writer.write(`${format(...args)}\n`);
}

function flushAll(): void {
  for (const writer of writers) writer.flush();
}

afterAll(flushAll);
// A worker runs this once a file; one exit listener flushes the writers of every file it ran.
const flushOnExit = Symbol.for('merchant-payments.run-log.flush-on-exit');
const processWithFlush = process as NodeJS.Process & { [flushOnExit]?: Set<() => void> };
if (processWithFlush[flushOnExit] === undefined) {
  const flushes = new Set<() => void>();
  processWithFlush[flushOnExit] = flushes;
  process.once('exit', () => {
    for (const flush of flushes) flush();
  });
}
processWithFlush[flushOnExit].add(flushAll);
