import { format } from 'node:util';
import { afterAll, expect } from 'vitest';
import { type RunLogWriter, runLogWriter } from './log-capture-run-log';

/**
 * Setup file of every test worker: copies what the worker prints to the run log (see
 * `runLogPath`). Two paths, because they reach different places: the Powertools logger writes
 * straight to `process.stdout` through its own `Console`, while `console.*` (used by `lib/local`)
 * is vitest's console, which sends to the main process without touching `process.stdout`. The
 * console is copied here rather than in `onConsoleLog`, which only reporters call: never with
 * `--silent` or a JSON-only reporter, twice with two console reporters.
 */
const testFile = expect.getState().testPath;
const writers: RunLogWriter[] = [];

for (const name of ['stdout', 'stderr'] as const) {
  const stream = process[name];
  const writer = runLogWriter(name, testFile);
  writers.push(writer);
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    writer.write(typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk));
    return write(chunk, ...rest);
  }) as typeof stream.write;
}

for (const method of ['debug', 'info', 'log', 'warn', 'error'] as const) {
  const writer = runLogWriter(`console.${method}`, testFile);
  writers.push(writer);
  const print = console[method].bind(console);
  console[method] = (...args: unknown[]) => {
    writer.write(`${format(...args)}\n`);
    print(...args);
  };
}

function flushAll(): void {
  for (const writer of writers) writer.flush();
}

afterAll(flushAll);
process.once('exit', flushAll);
