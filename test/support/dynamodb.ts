import { randomBytes } from 'node:crypto';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  paginateListTables,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { createTableInput, TableDefinition } from '../../functions/store/table';
import {
  type DynamoDbLocalTarget,
  dynamoDbLocalClientConfig,
  SharedDbAccessKeyId,
} from '../../lib/local/dynamodb-local';

let client: DynamoDBClient | undefined;
let documentClient: DynamoDBDocumentClient | undefined;

/**
 * This worker's DynamoDB Local (test/global-setup.ts starts one per worker). vitest numbers its
 * workers from 1 in VITEST_POOL_ID; a worker past the instances started shares one.
 */
export function testDynamoDbEndpoint(): string {
  const endpoints = inject('dynamodbEndpoints');
  return endpoints[(testWorker() - 1) % endpoints.length] as string;
}

/** This worker's number, from 1 (vitest's VITEST_POOL_ID). */
function testWorker(): number {
  return Number(process.env.VITEST_POOL_ID ?? '1');
}

/** This worker's DynamoDB Local as a runtime takes it: a `-sharedDb` one, so the shared key reaches it. */
export function testDynamoDbTarget(): DynamoDbLocalTarget {
  return { endpoint: testDynamoDbEndpoint(), accessKeyId: SharedDbAccessKeyId };
}

/** A client for this worker's DynamoDB Local (a `-sharedDb` one), shared within the worker's process. */
export function testDynamoDbClient(): DynamoDBClient {
  client ??= new DynamoDBClient(dynamoDbLocalClientConfig(testDynamoDbEndpoint(), SharedDbAccessKeyId));
  return client;
}

/** The document client (plain JavaScript values) over `testDynamoDbClient()`. */
export function testDocumentClient(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(testDynamoDbClient(), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

/**
 * Creates a table from the shared definition (keys, GSIs, stream, TTL) under a name no other test
 * uses and resolves once it is ACTIVE.
 */
export async function createTestTable(prefix = 'test'): Promise<string> {
  const tableName = `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const dynamodb = testDynamoDbClient();
  await dynamodb.send(new CreateTableCommand(createTableInput(tableName)));
  await waitUntilActive(tableName);
  await dynamodb.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TableDefinition.ttlAttribute, Enabled: true },
    }),
  );
  return tableName;
}

/** Deletes a table made by `createTestTable`; a table that is already gone is fine. */
export async function deleteTestTable(tableName: string): Promise<void> {
  try {
    await testDynamoDbClient().send(new DeleteTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}

/**
 * Deletes every table in this worker's DynamoDB Local, before a test file starts (file-hygiene.ts):
 * the files before it in this worker are done with theirs, and DynamoDB Local's background work
 * grows with the tables it holds (docs/decisions/test-suite-speed.md). A worker that shares its
 * instance with another (more workers than instances) leaves the tables alone.
 */
export async function deleteEarlierFilesTables(): Promise<void> {
  if (testWorker() > inject('dynamodbEndpoints').length) return;
  const tableNames: string[] = [];
  for await (const page of paginateListTables({ client: testDynamoDbClient() }, {})) {
    tableNames.push(...(page.TableNames ?? []));
  }
  for (const tableName of tableNames) await deleteTestTable(tableName);
}

async function waitUntilActive(tableName: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { Table } = await testDynamoDbClient().send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every(
      (index) => index.IndexStatus === 'ACTIVE',
    );
    if (Table?.TableStatus === 'ACTIVE' && indexesActive) return;
    if (Date.now() > deadline) throw new Error(`table ${tableName} not ACTIVE after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
