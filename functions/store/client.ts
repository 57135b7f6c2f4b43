import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { functionEnvironment } from '../config';

let client: DynamoDBDocumentClient | undefined;

/**
 * DynamoDB Local keeps one database per access key and region, so the region is fixed here: an
 * AWS_REGION in a developer's shell must not point the store at another database. The shared
 * access key is what reaches an instance run with `-sharedDb`, where any key sees the one database.
 */
export const LocalDynamoDb = { region: 'us-east-1', sharedAccessKeyId: 'local' } as const;

/**
 * One document client per container, created on first use. Against DynamoDB Local (an endpoint is
 * set) it signs with local credentials, so no AWS account is ever consulted.
 */
export function documentClient(): DynamoDBDocumentClient {
  const { DYNAMODB_ENDPOINT, DYNAMODB_LOCAL_ACCESS_KEY_ID } = functionEnvironment();
  client ??= createDocumentClient(DYNAMODB_ENDPOINT, DYNAMODB_LOCAL_ACCESS_KEY_ID);
  return client;
}

export function createDocumentClient(
  endpoint: string | undefined,
  accessKeyId: string = LocalDynamoDb.sharedAccessKeyId,
): DynamoDBDocumentClient {
  const base =
    endpoint === undefined
      ? new DynamoDBClient({})
      : new DynamoDBClient({
          endpoint,
          region: LocalDynamoDb.region,
          credentials: { accessKeyId, secretAccessKey: 'local' },
        });
  return DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

/** For tests and the local runtime, which point the same process at another table or endpoint. */
export function resetDocumentClient(): void {
  client = undefined;
}

export function tableName(): string {
  return functionEnvironment().TABLE_NAME;
}
