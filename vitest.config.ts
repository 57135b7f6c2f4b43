import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import LongFilesFirst from './test/support/long-files-first.ts';

const logScan = 'test/logs/log-scan.test.ts';

/**
 * Every core already runs a worker, so each Node process of the run (the workers and every command,
 * runtime and receiver they start, which inherit the variable) keeps one V8 helper thread, not
 * Node's four: beside the workers, helpers only contend for the cores
 * (docs/decisions/test-suite-speed.md). What a process does is the same either way.
 */
const nodeOptions = process.env.NODE_OPTIONS ?? '';
if (!nodeOptions.includes('--v8-pool-size'))
  process.env.NODE_OPTIONS = `${nodeOptions} --v8-pool-size=1`.trim();

/**
 * Files that measure a burst close to a hard limit, run after the others and one at a time: 50
 * concurrent invoice creates must all finish within the 29 s of API Gateway's integration limit,
 * which takes ~10–15 s on a database of their own with the 2 cores to themselves.
 */
const runAlone = ['test/e2e/invoices-numbering.test.ts', 'test/integration/local/ensure-table.test.ts'];

/**
 * The package merchants install (client/), from its source and not its build: the docs' helpers
 * import it by name. Each project below takes it; an inline project inherits no root `resolve`.
 */
const resolve = {
  alias: { 'merchant-payments': fileURLToPath(new URL('./client/src/index.ts', import.meta.url)) },
};

export default defineConfig({
  test: {
    // Global setups of the root project run once per run whatever files are selected, and what they
    // provide reaches every project. One DynamoDB Local per worker (test/global-setup.ts); a test
    // reaches its worker's with testDynamoDbEndpoint(). The run log collects what the service logs
    // (log-capture.ts).
    globalSetup: ['test/support/log-capture-setup.ts', 'test/global-setup.ts'],
    // Most of a file's time is waiting on a socket, a stream or a child process, so more workers than
    // cores keeps both busy (docs/decisions/e2e-fixture-and-test-workers.md).
    maxWorkers: availableParallelism() + 1,
    teardownTimeout: 15_000,
    // The longest files start first, also on a fresh clone with no timings of its own.
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        resolve,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, logScan, ...runAlone],
          setupFiles: ['test/support/log-capture.ts', 'test/support/file-hygiene.ts'],
          pool: 'forks',
          // A worker runs file after file in one process, importing the service, aws-cdk-lib and the
          // synthesized stacks once rather than once a file; every test file makes its own tables,
          // runtime and receivers, so no file sees another's state.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        resolve,
        test: {
          name: 'alone',
          include: runAlone,
          setupFiles: ['test/support/log-capture.ts', 'test/support/file-hygiene.ts'],
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 2 },
        },
      },
      {
        // Scans the run log once every other file has finished. A run of some files only does not
        // select it, unless named: then it fails saying the scan needs the whole suite.
        resolve,
        test: {
          name: 'log-scan',
          include: [logScan],
          pool: 'forks',
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
