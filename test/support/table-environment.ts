import { randomBytes } from 'node:crypto';
import { resetFunctionEnvironment } from '../../functions/config';
import { resetSecretSealer } from '../../functions/secrets/secret-sealer-from-env';
import { resetDocumentClient } from '../../functions/store/client';
import { createTestTable, testDynamoDbEndpoint } from './dynamodb';

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
    LOCAL_SECRETS_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  resetFunctionEnvironment();
  resetDocumentClient();
  resetSecretSealer();
  return tableName;
}
