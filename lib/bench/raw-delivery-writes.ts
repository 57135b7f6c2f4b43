import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../functions/store/client';
import { EntityType } from '../../functions/store/keys';
import { loadAtConcurrency } from './load';

/** The most items one BatchWriteItem takes. */
export const batchWriteItems = 25;
/** As many writes in flight as the dispatcher has messages in a batch. */
const rawConcurrency = 10;

/**
 * The least DynamoDB work `count` deliveries need in this design, with no condition and no reads:
 * (when `created`) their items written 25 to a BatchWriteItem, then for each delivery the two
 * writes of an attempt, 10 deliveries at a time: the lease that keeps a duplicate message from
 * sending twice, then the record of the attempt. Resolves to the milliseconds it took.
 */
export async function rawDeliveryWrites(count: number, options: { created: boolean }): Promise<number> {
  const client = documentClient();
  const run = randomUUID();
  const key = (index: number) => ({ PK: `BENCH#${run}`, SK: `DELIVERY#${index}` });
  const item = (index: number) => ({
    ...key(index),
    entityType: EntityType.webhookDelivery,
    status: 'pending',
    attemptCount: 0,
    attempts: [],
    data: {
      payoutId: `po_${index}`,
      grossAmount: 10_000,
      currency: 'USD',
      occurredAt: new Date().toISOString(),
    },
  });
  const batchCount = Math.ceil(count / batchWriteItems);
  const write = (index: number) =>
    client.send(
      new BatchWriteCommand({
        RequestItems: {
          [tableName()]: Array.from(
            { length: Math.min(batchWriteItems, count - index * batchWriteItems) },
            (_, offset) => ({ PutRequest: { Item: item(index * batchWriteItems + offset) } }),
          ),
        },
      }),
    );
  // Untimed when the deliveries exist before the measured work starts, as the dispatcher's do.
  if (!options.created)
    await loadAtConcurrency(batchCount, rawConcurrency, async (index) => void (await write(index)));
  const started = performance.now();
  if (options.created)
    await loadAtConcurrency(batchCount, rawConcurrency, async (index) => void (await write(index)));
  await loadAtConcurrency(count, rawConcurrency, async (index) => {
    await client.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(index),
        UpdateExpression: 'SET leaseUntil = :until',
        ExpressionAttributeValues: { ':until': new Date(Date.now() + 30_000).toISOString() },
      }),
    );
    await client.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(index),
        UpdateExpression:
          'SET #status = :status, attemptCount = :one, attempts = list_append(attempts, :attempt) REMOVE leaseUntil',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': 'succeeded',
          ':one': 1,
          ':attempt': [{ statusCode: 200, durationMs: 5, attemptedAt: new Date().toISOString() }],
        },
      }),
    );
  });
  return performance.now() - started;
}
