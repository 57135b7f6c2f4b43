import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { functionEnvironment } from '../config';

let client: DynamoDBDocumentClient | undefined;

/**
 * DynamoDB Local keeps one database per access key and region, so the region is fixed here: an
 * AWS_REGION in a developer's shell must not point the store at another database. A client given
 * no key signs with the fixed `local`, whose database holds nothing of the runtime's.
 */
export const LocalDynamoDb = { region: 'us-east-1', defaultAccessKeyId: 'local' } as const;

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
  accessKeyId: string = LocalDynamoDb.defaultAccessKeyId,
): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(createDynamoDbClient(endpoint, accessKeyId), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

/**
 * The plain client under the document client, for code that must keep items exactly as DynamoDB
 * sends them (typed values, numbers as digits): the admin CLI's copy of restored items.
 */
export function createDynamoDbClient(
  endpoint: string | undefined,
  accessKeyId: string = LocalDynamoDb.defaultAccessKeyId,
  options: { readonly maxAttempts?: number } = {},
): DynamoDBClient {
  const retries = options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts };
  return endpoint === undefined
    ? new DynamoDBClient({ ...retries })
    : new DynamoDBClient({
        endpoint,
        region: LocalDynamoDb.region,
        credentials: { accessKeyId, secretAccessKey: 'local' },
        ...retries,
      });
}

/** For tests and the local runtime, which point the same process at another table or endpoint. */
export function resetDocumentClient(): void {
  client = undefined;
}

export function tableName(): string {
  return functionEnvironment().TABLE_NAME;
}
