import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TableDefinition } from '../../functions/store/table';
import { rekeyItems } from '../admin/list-keys';

/**
 * Creates the local table from the shared definition, with its TTL, unless it exists already. A
 * table kept from an earlier release (`.local/dynamodb/`) gets the indexes added since, one at a
 * time as DynamoDB allows, and then its items this release's list keys (`items rekey`), so the
 * lists read through them find what the table held before.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const input = createTableInput(tableName);
  try {
    await client.send(new CreateTableCommand(input));
  } catch (error) {
    if (error instanceof ResourceInUseException) return addMissingIndexes(client, tableName);
    throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
  const TimeToLiveSpecification = { AttributeName: TableDefinition.ttlAttribute, Enabled: true };
  await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification }));
}

async function addMissingIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  const input = createTableInput(tableName);
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const missing = input.GlobalSecondaryIndexes.filter((index) => !present.has(index.IndexName));
  if (missing.length === 0) return;
  for (const index of missing) {
    const keyNames = new Set(index.KeySchema.map((key) => key.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: input.AttributeDefinitions.filter((attribute) =>
          keyNames.has(attribute.AttributeName),
        ),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    await untilIndexIsActive(client, tableName, index.IndexName);
  }
  await rekeyItems({ client, tableName, apply: true });
}

/** DynamoDB Local builds an index at once; this waits for it all the same, 30 s at most. */
async function untilIndexIsActive(client: DynamoDBClient, tableName: string, indexName: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const index = Table?.GlobalSecondaryIndexes?.find((candidate) => candidate.IndexName === indexName);
    if (index?.IndexStatus === 'ACTIVE') return;
    if (Date.now() > deadline) throw new Error(`index ${indexName} of ${tableName} is not active after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
