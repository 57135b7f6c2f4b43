import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { createTableInput } from '../../../functions/store/table';
import { ensureTable } from '../../../lib/local/ensure-table';
import { deleteTestTable, testDocumentClient, testDynamoDbClient } from '../../support/dynamodb';

const tables: string[] = [];
afterEach(async () => {
  await Promise.all(tables.splice(0).map(deleteTestTable));
});

const newName = () => {
  const name = `ensure-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  tables.push(name);
  return name;
};

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
    expect(indexes?.map((index) => index.name).sort()).toEqual(['GSI1', 'GSI2', 'GSI3']);
  });

  it('adds the pay-link index to a table persisted before it, and indexes the items already there', async () => {
    const tableName = newName();
    const current = createTableInput(tableName);
    await testDynamoDbClient().send(
      new CreateTableCommand({
        ...current,
        AttributeDefinitions: current.AttributeDefinitions.filter((name) => name.AttributeName !== 'GSI3PK'),
        GlobalSecondaryIndexes: current.GlobalSecondaryIndexes.filter((index) => index.IndexName !== 'GSI3'),
      }),
    );
    await testDocumentClient().send(
      new PutCommand({
        TableName: tableName,
        Item: { PK: 'MERCHANT#mer_x', SK: 'INVOICE#inv_x', GSI3PK: 'INVOICE_SLUG#abc', status: 'issued' },
      }),
    );

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
    // A second start finds nothing missing.
    await ensureTable(testDynamoDbClient(), tableName);
    expect((await indexesOf(tableName))?.map((index) => index.name).sort()).toEqual(['GSI1', 'GSI2', 'GSI3']);
    // Building an index on a DynamoDB Local busy with the rest of the suite has taken over 30 s.
  }, 240_000);
});
