import {
  CreateTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TableDefinition } from '../../functions/store/table';

/** Creates the local table from the shared definition, with its TTL, unless it exists already. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } catch (error) {
    if (error instanceof ResourceInUseException) return;
    throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
  const TimeToLiveSpecification = { AttributeName: TableDefinition.ttlAttribute, Enabled: true };
  await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification }));
}
