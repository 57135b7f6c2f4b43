import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { documentClient, tableName } from '../../functions/store/client';
import type { DynamoDbLocalTarget } from '../local/dynamodb-local';
import { startStreamPoller } from '../local/stream-poller';

/** The entity type of the probe items: no consumer of the service's stream routes it. */
const probeEntityType = 'BENCH_STREAM_PROBE';

export interface StreamProbe {
  /** Writes one probe item, stamped with the time just before the write. */
  write(): Promise<void>;
  /** Milliseconds from each probe's write to its stream record reaching the bare consumer. */
  readonly latenciesMs: readonly number[];
  stop(): Promise<void>;
}

/**
 * The baseline of a stream hop: a write's own stream record reaching a consumer that does nothing
 * but note the time, read by the local runtime's stream poller with its default settings (the
 * poll interval, the batch size) on the same table as the service's writes.
 */
export async function startStreamProbe(options: {
  readonly dynamodb: DynamoDbLocalTarget;
  readonly tableName: string;
}): Promise<StreamProbe> {
  const latenciesMs: number[] = [];
  const run = randomUUID();
  let next = 0;
  const isProbe = (record: DynamoDBRecord) =>
    record.eventName === 'INSERT' && record.dynamodb?.NewImage?.entityType?.S === probeEntityType;
  const poller = await startStreamPoller({
    endpoint: options.dynamodb.endpoint,
    accessKeyId: options.dynamodb.accessKeyId,
    tableName: options.tableName,
    filter: isProbe,
    handler: async (event) => {
      const now = Date.now();
      for (const record of event.Records) {
        latenciesMs.push(now - Number(record.dynamodb?.NewImage?.writtenAt?.N));
      }
    },
  });
  return {
    latenciesMs,
    write: async () => {
      next += 1;
      await documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            PK: `BENCH#${run}`,
            SK: `PROBE#${next}`,
            entityType: probeEntityType,
            writtenAt: Date.now(),
          },
        }),
      );
    },
    stop: () => poller.stop(),
  };
}
