import { afterAll, beforeAll, vi } from 'vitest';
import { deleteEarlierFilesTables } from './dynamodb';

/**
 * Setup file of every test file. A worker runs file after file in one process (vitest.config.ts), so
 * what a file changes of vitest's shared state is put back after its last test: fake timers,
 * stubbed variables and globals, and spies. aws-sdk-client-mock stubs are removed by
 * `mockAwsClient` (aws-client-mocks.ts); test/unit/structure/test-isolation.test.ts checks both.
 * The tables earlier files left in the worker's DynamoDB Local go before a file's first test: a
 * file's runtime, which holds its table, may stop only after the file's own hooks.
 */
beforeAll(() => deleteEarlierFilesTables());

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
