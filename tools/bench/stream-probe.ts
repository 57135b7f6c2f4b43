import { randomUUID } from 'node:crypto';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { documentClient, tableName } from '../../functions/store/client';
import type { DynamoDbLocalTarget } from '../local/dynamodb-local';
import { startStreamPoller } from '../local/stream-poller';

/** The entity type of the probe items: no consumer of the service's stream routes it. */
const probeEntityType = 'BENCH_STREAM_PROBE';
/** A transaction takes 100 actions: the deliveries and the one sequence they advance. */
const maxDeliveriesPerTransaction = 99;

export interface StreamProbe {
  /** Writes one probe item, stamped with the time just before the write. */
  write(): Promise<void>;
  /** Milliseconds from each probe's write to its stream record reaching the bare consumer: one hop. */
  readonly hopMs: readonly number[];
  /**
   * Milliseconds from each probe's write to the end of a bare pipeline: the record's first hop, the
   * router's commands sent raw (a Query, then a transaction writing a second probe item and a
   * sequence), that item's hop, then the dispatcher's commands sent raw (a GetItem, the lease's
   * UpdateItem, the record's PutItem). The event's own path with no logic, no queue and no POST.
   */
  readonly pipelineMs: readonly number[];
  stop(): Promise<void>;
}

/**
 * The baselines of an event's way to its receiver, read by the local runtime's stream poller with
 * its default settings (the poll interval, the batch size) on the same table as the service's
 * writes: one stream hop, and the design's two hops and commands with nothing between them.
 */
export async function startStreamProbe(options: {
  readonly dynamodb: DynamoDbLocalTarget;
  readonly tableName: string;
}): Promise<StreamProbe> {
  const hopMs: number[] = [];
  const pipelineMs: number[] = [];
  const run = `BENCH#${randomUUID()}`;
  const client = documentClient();
  let next = 0;
  const inFlight = new Set<Promise<void>>();
  const isProbe = (record: DynamoDBRecord) =>
    record.eventName === 'INSERT' && record.dynamodb?.NewImage?.entityType?.S === probeEntityType;
  await client.send(
    new PutCommand({ TableName: tableName(), Item: { PK: run, SK: 'ENDPOINT#1', status: 'active' } }),
  );
  const poller = await startStreamPoller({
    endpoint: options.dynamodb.endpoint,
    accessKeyId: options.dynamodb.accessKeyId,
    tableName: options.tableName,
    filter: isProbe,
    handler: async (event) => {
      const arrivedAt = Date.now();
      const routed: { probe: string; writtenAt: number }[] = [];
      for (const record of event.Records) {
        const image = record.dynamodb?.NewImage;
        const writtenAt = Number(image?.writtenAt?.N);
        const probe = String(image?.SK?.S).replace(/^(PROBE|DELIVERY)#/, '');
        if (image?.hop?.N === '2') {
          // Handed on without waiting, as the router hands a delivery to the queue and the
          // dispatcher runs beside the stream's consumer.
          const dispatched = dispatchProbe(client, run, probe, writtenAt).then(() => {
            pipelineMs.push(Date.now() - writtenAt);
          });
          inFlight.add(dispatched);
          void dispatched.finally(() => inFlight.delete(dispatched));
        } else {
          hopMs.push(arrivedAt - writtenAt);
          routed.push({ probe, writtenAt });
        }
      }
      await routeProbes(client, run, routed);
    },
  });
  return {
    hopMs,
    pipelineMs,
    write: async () => {
      next += 1;
      await client.send(
        new PutCommand({
          TableName: tableName(),
          Item: { PK: run, SK: `PROBE#${next}`, entityType: probeEntityType, writtenAt: Date.now(), hop: 1 },
        }),
      );
    },
    stop: async () => {
      await poller.stop();
      await Promise.allSettled(inFlight);
    },
  };
}

type DocumentClient = ReturnType<typeof documentClient>;

/**
 * As the router does for a batch's events: one Query of the endpoints per event, then their
 * deliveries written together, up to 100 actions a transaction, with the sequence's advance.
 */
async function routeProbes(
  client: DocumentClient,
  run: string,
  probes: readonly { probe: string; writtenAt: number }[],
): Promise<void> {
  for (const _ of probes) {
    await client.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :endpoints)',
        ExpressionAttributeValues: { ':pk': run, ':endpoints': 'ENDPOINT#' },
      }),
    );
  }
  for (let first = 0; first < probes.length; first += maxDeliveriesPerTransaction) {
    const chunk = probes.slice(first, first + maxDeliveriesPerTransaction);
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          ...chunk.map(({ probe, writtenAt }) => ({
            Put: {
              TableName: tableName(),
              Item: { PK: run, SK: `DELIVERY#${probe}`, entityType: probeEntityType, writtenAt, hop: 2 },
            },
          })),
          {
            Update: {
              TableName: tableName(),
              Key: { PK: run, SK: 'SEQUENCE' },
              UpdateExpression: 'ADD lastSequence :count',
              ExpressionAttributeValues: { ':count': chunk.length },
            },
          },
        ],
      }),
    );
  }
}

/** As the dispatcher does for one delivery: read the endpoint, lease the delivery, record the attempt. */
async function dispatchProbe(
  client: DocumentClient,
  run: string,
  probe: string,
  writtenAt: number,
): Promise<void> {
  const key = { PK: run, SK: `DELIVERY#${probe}` };
  await client.send(new GetCommand({ TableName: tableName(), Key: { PK: run, SK: 'ENDPOINT#1' } }));
  await client.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET leaseUntil = :until',
      ExpressionAttributeValues: { ':until': Date.now() + 30_000 },
    }),
  );
  await client.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...key, entityType: probeEntityType, writtenAt, hop: 2, status: 'succeeded' },
    }),
  );
}
