import { randomUUID } from 'node:crypto';
import {
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../functions/store/client';
import { EntityType } from '../../functions/store/keys';
import { loadAtConcurrency } from './load';

/** The most items one BatchWriteItem takes. */
export const batchWriteItems = 25;
/** As many commands in flight as the dispatcher has messages in a batch. */
const rawConcurrency = 10;

/**
 * The DynamoDB commands `events` events to `endpointsPerEvent` endpoints each need in this design
 * (docs/performance.md "Units per operation"), sent raw, with no condition and no
 * logic between them. When `routed`: per event the router's Query of the merchant's endpoints and
 * one TransactWriteItems writing each delivery and its endpoint's sequence. Then per delivery the
 * dispatcher's three: the endpoint's GetItem, the lease's UpdateItem, the attempt's PutItem. Ten at
 * a time, as a queue batch. Resolves to the milliseconds it took.
 */
export async function rawDeliveryCommands(options: {
  readonly events: number;
  readonly endpointsPerEvent: number;
  readonly routed: boolean;
}): Promise<number> {
  const { events, endpointsPerEvent } = options;
  const raw = rawRun(endpointsPerEvent);
  // The endpoints exist before any event, as they do for the pipeline.
  await putEndpoints(raw);
  const route = (event: number) => routeEvent(raw, event);
  // Untimed when the deliveries exist before the measured work starts, as the dispatcher's do.
  if (!options.routed) await loadAtConcurrency(events, 1, route);
  const started = performance.now();
  if (options.routed) await loadAtConcurrency(events, 1, route);
  await loadAtConcurrency(events * endpointsPerEvent, rawConcurrency, (index) =>
    dispatchDelivery(raw, index),
  );
  return performance.now() - started;
}

/** One run's client, partition and endpoint count, with the keys and items of its commands. */
function rawRun(endpointsPerEvent: number) {
  const run = `BENCH#${randomUUID()}`;
  const deliveryKey = (index: number) => ({
    PK: `${run}#${index % endpointsPerEvent}`,
    SK: `DELIVERY#${index}`,
  });
  return {
    client: documentClient(),
    run,
    endpointsPerEvent,
    endpointKey: (endpoint: number) => ({ PK: run, SK: `WEBHOOK_ENDPOINT#${endpoint}` }),
    sequenceKey: (endpoint: number) => ({ PK: run, SK: `WEBHOOK_DELIVERY_SEQUENCE#${endpoint}` }),
    deliveryKey,
    delivery: (index: number) => ({
      ...deliveryKey(index),
      entityType: EntityType.webhookDelivery,
      status: 'pending',
      attemptCount: 0,
      attempts: [] as unknown[],
      data: {
        payoutId: `po_${index}`,
        grossAmount: 10_000,
        currency: 'USD',
        occurredAt: new Date().toISOString(),
      },
    }),
  };
}

type RawRun = ReturnType<typeof rawRun>;

async function putEndpoints({ client, endpointsPerEvent, endpointKey }: RawRun): Promise<void> {
  await loadAtConcurrency(Math.ceil(endpointsPerEvent / batchWriteItems), rawConcurrency, async (batch) => {
    const first = batch * batchWriteItems;
    await client.send(
      new BatchWriteCommand({
        RequestItems: {
          [tableName()]: Array.from(
            { length: Math.min(batchWriteItems, endpointsPerEvent - first) },
            (_, offset) => ({
              PutRequest: {
                Item: {
                  ...endpointKey(first + offset),
                  entityType: EntityType.webhookEndpoint,
                  status: 'active',
                },
              },
            }),
          ),
        },
      }),
    );
  });
}

/** The router's commands for one event: the endpoints' Query, then one transaction of its deliveries. */
async function routeEvent({ client, run, endpointsPerEvent, sequenceKey, delivery }: RawRun, event: number) {
  await client.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :endpoints)',
      ExpressionAttributeValues: { ':pk': run, ':endpoints': 'WEBHOOK_ENDPOINT#' },
    }),
  );
  await client.send(
    new TransactWriteCommand({
      TransactItems: Array.from({ length: endpointsPerEvent }, (_, endpoint) => [
        { Put: { TableName: tableName(), Item: delivery(event * endpointsPerEvent + endpoint) } },
        {
          Update: {
            TableName: tableName(),
            Key: sequenceKey(endpoint),
            UpdateExpression: 'ADD lastSequence :one',
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
      ]).flat(),
    }),
  );
}

/** The dispatcher's three commands for one delivery: the endpoint, the lease, the attempt. */
async function dispatchDelivery(
  { client, endpointsPerEvent, endpointKey, deliveryKey, delivery }: RawRun,
  index: number,
): Promise<void> {
  await client.send(new GetCommand({ TableName: tableName(), Key: endpointKey(index % endpointsPerEvent) }));
  await client.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: deliveryKey(index),
      UpdateExpression: 'SET leaseUntil = :until',
      ExpressionAttributeValues: { ':until': new Date(Date.now() + 30_000).toISOString() },
    }),
  );
  await client.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...delivery(index),
        status: 'succeeded',
        attemptCount: 1,
        attempts: [{ statusCode: 200, durationMs: 5, attemptedAt: new Date().toISOString() }],
      },
    }),
  );
}
