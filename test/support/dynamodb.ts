import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
import { type DynamoDbLocalTarget, dynamoDbLocalClientConfig } from '../../tools/local/dynamodb-local';
import { DynamoDbAccessKey, PrivateMode } from '../../tools/local/private-files';

/**
 * The key of this test file's own database. The worker's DynamoDB Local keeps one database per access
 * key, so each file gets a fresh one (`startFileDatabase`): a write to a table with a stream costs
 * DynamoDB Local time in proportion to every stream record its database holds, deleted tables'
 * included (docs/decisions/test-suite-speed.md).
 */
let fileAccessKeyId: string | undefined;
let client: DynamoDBClient | undefined;
let documentClient: DynamoDBDocumentClient | undefined;

/**
 * This worker's DynamoDB Local (test/global-setup.ts starts one per worker). vitest numbers its
 * workers from 1 in VITEST_POOL_ID; a worker past the instances started shares one.
 */
export function testDynamoDbEndpoint(): string {
  const endpoints = inject('dynamodbEndpoints');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return endpoints[(worker - 1) % endpoints.length] as string;
}

/** The access key of this test file's database in the worker's DynamoDB Local. */
export function testDynamoDbAccessKeyId(): string {
  fileAccessKeyId ??= DynamoDbAccessKey.make();
  return fileAccessKeyId;
}

/** This test file's database, as a runtime or a client takes it: the worker's endpoint and the file's key. */
export function testDynamoDbTarget(): DynamoDbLocalTarget {
  return { endpoint: testDynamoDbEndpoint(), accessKeyId: testDynamoDbAccessKeyId() };
}

/**
 * Run before each test file (file-hygiene.ts): deletes the tables the worker's previous file left in
 * its database, since DynamoDB Local's background work grows with the tables it holds, and gives this
 * file a database of its own under a new key, made when the file first asks for it.
 */
export async function startFileDatabase(): Promise<void> {
  if (fileAccessKeyId !== undefined) {
    const tableNames: string[] = [];
    for await (const page of paginateListTables({ client: testDynamoDbClient() }, {})) {
      tableNames.push(...(page.TableNames ?? []));
    }
    for (const tableName of tableNames) await deleteTestTable(tableName);
  }
  client?.destroy();
  client = undefined;
  documentClient = undefined;
  fileAccessKeyId = undefined;
}

/**
 * Writes the file's key where `npm start` keeps its own (`dynamodb.key` in the state folder), for
 * the admin CLI's `--local` against a runtime on this file's database.
 */
export async function writeTestDynamoDbKey(stateDir: string): Promise<void> {
  await writeFile(join(stateDir, DynamoDbAccessKey.file), `${testDynamoDbAccessKeyId()}\n`, {
    mode: PrivateMode.file,
  });
}

/** A client for this file's database, shared within the file. */
export function testDynamoDbClient(): DynamoDBClient {
  client ??= new DynamoDBClient(dynamoDbLocalClientConfig(testDynamoDbEndpoint(), testDynamoDbAccessKeyId()));
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
