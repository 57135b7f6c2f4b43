import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTableInput } from '../../../functions/store/table';
import {
  type DynamoDbLocal,
  dynamoDbLocalClientConfig,
  startDynamoDbLocal,
} from '../../../lib/local/dynamodb-local';
import { ensureTable } from '../../../lib/local/ensure-table';

// A DynamoDB Local of its own, in the group that runs after the others: building an index on the
// suite's shared one, busy and full of earlier files' tables, took over two minutes.
let dynamodb: DynamoDbLocal | undefined;
let client: DynamoDBClient;
let documentClient: DynamoDBDocumentClient;
beforeAll(async () => {
  dynamodb = await startDynamoDbLocal({ inMemory: true });
  client = new DynamoDBClient(dynamoDbLocalClientConfig(dynamodb.endpoint, dynamodb.accessKeyId));
  documentClient = DynamoDBDocumentClient.from(client);
}, 60_000);
afterAll(async () => {
  client?.destroy();
  await dynamodb?.stop();
});

const testDynamoDbClient = () => client;
const testDocumentClient = () => documentClient;
const newName = () => `ensure-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

const indexesOf = async (tableName: string) =>
  (
    await testDynamoDbClient().send(new DescribeTableCommand({ TableName: tableName }))
  ).Table?.GlobalSecondaryIndexes?.map((index) => ({
    name: index.IndexName,
    status: index.IndexStatus,
    projection: index.Projection,
  }));

describe('ensureTable', () => {
  it('creates the table with every index of the shared definition', async () => {
    const tableName = newName();
    await ensureTable(testDynamoDbClient(), tableName);
    const indexes = await indexesOf(tableName);
    expect(indexes?.map((index) => index.name).sort()).toEqual(['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5']);
  });

  it('adds the pay-link, event-log and event-deliveries indexes to a table persisted before them, and indexes the items already there', async () => {
    const tableName = newName();
    const current = createTableInput(tableName);
    await testDynamoDbClient().send(
      new CreateTableCommand({
        ...current,
        AttributeDefinitions: current.AttributeDefinitions.filter(
          (name) => !['GSI3PK', 'GSI4PK', 'GSI4SK', 'eventId', 'createdAt'].includes(name.AttributeName),
        ),
        GlobalSecondaryIndexes: current.GlobalSecondaryIndexes.filter(
          (index) => !['GSI3', 'GSI4', 'GSI5'].includes(index.IndexName),
        ),
      }),
    );
    await testDocumentClient().send(
      new PutCommand({
        TableName: tableName,
        Item: { PK: 'MERCHANT#mer_x', SK: 'INVOICE#inv_x', GSI3PK: 'INVOICE_SLUG#abc', status: 'issued' },
      }),
    );
    const event = {
      PK: 'EVENT#evt_x',
      SK: 'EVENT',
      GSI4PK: 'MERCHANT#mer_x#OBJECT#inv_x#EVENTS',
      GSI4SK: 'at',
      eventId: 'evt_x',
      createdAt: '2026-11-25T12:00:00.000Z',
      entityType: 'Event',
      merchantId: 'mer_x',
    };
    await testDocumentClient().send(new PutCommand({ TableName: tableName, Item: event }));

    await ensureTable(testDynamoDbClient(), tableName);

    const gsi3 = (await indexesOf(tableName))?.find((index) => index.name === 'GSI3');
    expect(gsi3).toEqual({
      name: 'GSI3',
      status: 'ACTIVE',
      projection: current.GlobalSecondaryIndexes.find((index) => index.IndexName === 'GSI3')?.Projection,
    });
    const { Items } = await testDocumentClient().send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'GSI3',
        KeyConditionExpression: 'GSI3PK = :key',
        ExpressionAttributeValues: { ':key': 'INVOICE_SLUG#abc' },
      }),
    );
    expect(Items).toEqual([
      { PK: 'MERCHANT#mer_x', SK: 'INVOICE#inv_x', GSI3PK: 'INVOICE_SLUG#abc', status: 'issued' },
    ]);
    const gsi4 = await testDocumentClient().send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'GSI4',
        KeyConditionExpression: 'GSI4PK = :key',
        ExpressionAttributeValues: { ':key': event.GSI4PK },
      }),
    );
    expect(gsi4.Items).toEqual([event]);
    const gsi5 = await testDocumentClient().send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'GSI5',
        KeyConditionExpression: 'eventId = :key',
        ExpressionAttributeValues: { ':key': event.eventId },
      }),
    );
    // GSI5 projects only what the list of an event's deliveries shows.
    expect(gsi5.Items).toEqual([
      {
        PK: event.PK,
        SK: event.SK,
        eventId: event.eventId,
        createdAt: event.createdAt,
        entityType: 'Event',
        merchantId: 'mer_x',
      },
    ]);
    // A second start finds nothing missing.
    await ensureTable(testDynamoDbClient(), tableName);
    expect((await indexesOf(tableName))?.map((index) => index.name).sort()).toEqual([
      'GSI1',
      'GSI2',
      'GSI3',
      'GSI4',
      'GSI5',
    ]);
  }, 60_000);
});
