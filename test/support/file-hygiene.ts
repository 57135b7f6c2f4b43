import { afterAll, vi } from 'vitest';
import { startFileDatabase } from './dynamodb';

/**
 * Setup file of every test file. A worker runs file after file in one process (vitest.config.ts), so
 * what a file changes of vitest's shared state is put back after its last test: fake timers,
 * stubbed variables and globals, and spies. aws-sdk-client-mock stubs are removed by
 * `mockAwsClient` (aws-client-mocks.ts); test/unit/structure/test-isolation.test.ts checks both.
 * Each file gets a database of its own in the worker's DynamoDB Local, and the tables the previous
 * file left go first: a file's runtime, which holds its table, may stop only after the file's own
 * hooks, so they go before the next file rather than after this one.
 */
await startFileDatabase();

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
