import { afterAll, beforeAll, vi } from 'vitest';
import { deleteEarlierFilesTables } from './dynamodb';

/**
 * Setup file of every test file. A worker runs file after file in one process (vitest.config.ts), so
 * what a file changes of vitest's shared state is put back after its last test: fake timers,
 * stubbed variables and globals, and spies. aws-sdk-client-mock stubs are removed by
 * `mockAwsClient` (aws-client-mocks.ts); test/unit/structure/test-isolation.test.ts checks both.
 */
beforeAll(() => deleteEarlierFilesTables());

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
