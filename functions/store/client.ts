import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { functionEnvironment } from '../config';

let client: DynamoDBDocumentClient | undefined;

/**
 * One document client per container, created on first use. Against DynamoDB Local (an endpoint is
 * set) it signs with fixed local credentials, so no AWS account is ever consulted.
 */
export function documentClient(): DynamoDBDocumentClient {
  client ??= createDocumentClient(functionEnvironment().DYNAMODB_ENDPOINT);
  return client;
}

export function createDocumentClient(endpoint: string | undefined): DynamoDBDocumentClient {
  const base =
    endpoint === undefined
      ? new DynamoDBClient({})
      : new DynamoDBClient({
          endpoint,
          region: process.env.AWS_REGION ?? 'us-east-1',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
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
