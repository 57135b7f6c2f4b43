import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TableDefinition } from '../../functions/store/table';

/**
 * Creates the local table from the shared definition, or, for a table persisted by an earlier
 * version, adds the global indexes it lacks (DynamoDB backfills them from the items already there),
 * so a checkout with older data still runs every route.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const wanted = createTableInput(tableName);
  let existing: string[];
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    existing = (Table?.GlobalSecondaryIndexes ?? []).map((index) => String(index.IndexName));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    await client.send(new CreateTableCommand(wanted));
    await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TableDefinition.ttlAttribute, Enabled: true },
      }),
    );
    return;
  }
  // UpdateTable creates one global index per call.
  for (const index of wanted.GlobalSecondaryIndexes) {
    if (existing.includes(index.IndexName)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: wanted.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    await waitUntilIndexActive(client, tableName, index.IndexName);
  }
}

async function waitUntilIndexActive(client: DynamoDBClient, tableName: string, indexName: string) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const index = Table?.GlobalSecondaryIndexes?.find((candidate) => candidate.IndexName === indexName);
    if (index?.IndexStatus === 'ACTIVE') return;
    if (Date.now() > deadline) throw new Error(`index ${indexName} of ${tableName} not ACTIVE after 180 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
