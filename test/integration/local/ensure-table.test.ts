import { DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { TableDefinition } from '../../../functions/store/table';
import { ensureTable } from '../../../tools/local/ensure-table';
import { testDynamoDbClient } from '../../support/dynamodb';

const newName = () => `ensure-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

describe('ensureTable', () => {
  it('creates the table with every index of the shared definition and its TTL attribute', async () => {
    const tableName = newName();
    await ensureTable(testDynamoDbClient(), tableName);

    const { Table } = await testDynamoDbClient().send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual([
      'GSI1',
      'GSI2',
      'GSI3',
      'GSI4',
      'GSI5',
      'GSI6',
      'GSI7',
    ]);
    const ttl = await testDynamoDbClient().send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    expect(ttl.TimeToLiveDescription?.AttributeName).toBe(TableDefinition.ttlAttribute);
  });

  it('keeps an existing table and its items when the runtime starts again', async () => {
    const tableName = newName();
    await ensureTable(testDynamoDbClient(), tableName);
    const documents = DynamoDBDocumentClient.from(testDynamoDbClient());
    await documents.send(new PutCommand({ TableName: tableName, Item: { PK: 'kept', SK: 'item' } }));

    await ensureTable(testDynamoDbClient(), tableName);

    const { Items } = await documents.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': 'kept' },
      }),
    );
    expect(Items).toEqual([{ PK: 'kept', SK: 'item' }]);
  });
});
