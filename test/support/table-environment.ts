import { randomBytes } from 'node:crypto';
import { vi } from 'vitest';
import { resetFunctionEnvironment } from '../../functions/config';
import { resetSecretSealer } from '../../functions/secrets/secret-sealer-from-env';
import { resetDocumentClient } from '../../functions/store/client';
import { createTestTable, testDynamoDbAccessKeyId, testDynamoDbEndpoint } from './dynamodb';

/**
 * Points the function code of this test process at a fresh table of the suite's DynamoDB Local,
 * with a local secrets key, as the local runtime does for its handlers.
 */
export async function useFreshTable(): Promise<string> {
  const tableName = await createTestTable('delivery');
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    STAGE: 'sandbox',
    DYNAMODB_ENDPOINT: testDynamoDbEndpoint(),
    DYNAMODB_LOCAL_ACCESS_KEY_ID: testDynamoDbAccessKeyId(),
    LOCAL_SECRETS_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  resetFunctionEnvironment();
  resetDocumentClient();
  resetSecretSealer();
  return tableName;
}

/**
 * For unit tests of command builders: a table name and stage in the function environment, put back
 * after each test. No table exists behind them; nothing is sent.
 */
export function stubTableEnvironment(): () => void {
  vi.stubEnv('TABLE_NAME', 'merchant-payments-test');
  vi.stubEnv('STAGE', 'sandbox');
  resetFunctionEnvironment();
  return () => {
    vi.unstubAllEnvs();
    resetFunctionEnvironment();
  };
}
