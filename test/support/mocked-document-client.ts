import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetFunctionEnvironment } from '../../functions/config';
import { resetDocumentClient } from '../../functions/store/client';
import { mockAwsClient } from './aws-client-mocks';

/**
 * For unit tests of the store's retry loops: every test of the file gets a fresh document client
 * whose commands the returned mock answers, a function environment whose table is `t`, and fake
 * timers, so a backoff's waits run at once with `vi.runAllTimersAsync()`.
 */
export function useMockedDocumentClient() {
  const dynamodb = mockAwsClient(DynamoDBDocumentClient);
  beforeEach(() => {
    vi.stubEnv('TABLE_NAME', 't');
    vi.stubEnv('STAGE', 'sandbox');
    vi.stubEnv('DYNAMODB_ENDPOINT', 'http://127.0.0.1:9');
    resetFunctionEnvironment();
    resetDocumentClient();
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
    resetFunctionEnvironment();
    resetDocumentClient();
  });
  return dynamodb;
}
