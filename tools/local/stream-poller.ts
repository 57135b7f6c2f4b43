import { setTimeout as sleep } from 'node:timers/promises';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type ShardIteratorType,
  type _Record as StreamRecordSource,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent, StreamRecord } from 'aws-lambda';
import { DynamoDbLocalRegion, dynamoDbLocalClientConfig } from './dynamodb-local';

// biome-ignore lint/suspicious/noConfusingVoidType: the result type of aws-lambda's DynamoDBStreamHandler
export type StreamBatchResult = DynamoDBBatchResponse | undefined | void;

export type StreamPollerErrorContext =
  | { stage: 'poll'; shardId?: string }
  | {
      stage: 'handler';
      shardId: string;
      /** 1 for the first delivery of this checkpoint, 2 for its first retry, … */
      attempt: number;
      recordCount: number;
      firstSequenceNumber: string | undefined;
      lastSequenceNumber: string | undefined;
      /** Retries are exhausted and the records were skipped (Lambda's on-failure destination). */
      discarded: boolean;
    };

export interface StreamPollerOptions {
  tableName: string;
  handler: (event: DynamoDBStreamEvent) => Promise<StreamBatchResult>;
  endpoint: string;
  /** The key of the DynamoDB Local database that holds the table. */
  accessKeyId: string;
  /** Where the shards open at start are read from: `latest` (default) or their oldest record. */
  from?: 'latest' | 'trim_horizon' | undefined;
  /** Like the mapping's BatchSize (default 100). */
  batchSize?: number | undefined;
  /** Wait between empty GetRecords calls (default 250 ms). */
  pollIntervalMs?: number | undefined;
  /** Like the mapping's filter criteria: records it rejects are never delivered. */
  filter?: ((record: DynamoDBRecord) => boolean) | undefined;
  /** Like MaximumRetryAttempts (default 5). */
  maxRetries?: number | undefined;
  /** First retry delay, doubled per retry up to 5 s (default 200 ms). */
  retryBackoffMs?: number | undefined;
  /** Default: one line on stderr, without record contents. */
  onError?: ((error: unknown, context: StreamPollerErrorContext) => void) | undefined;
}

export interface StreamPoller {
  streamArn: string;
  /** Stops polling after the batches in flight. */
  stop(): Promise<void>;
  /** Resolves once every record written before the call has been handled, filtered out or discarded. */
  drain(options?: { timeoutMs?: number }): Promise<void>;
}

const MaxBackoffMs = 5_000;
const ShardDiscoveryIntervalMs = 2_000;

/**
 * Reads a table's stream and calls `handler` the way a Lambda event source mapping does: a shard's
 * records in order and in batches, one batch at a time per shard, parents before children; a throw
 * retries the batch, `batchItemFailures` retries from the lowest failed record
 * (ReportBatchItemFailures), and after `maxRetries` the batch is skipped and reported.
 */
export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const config = dynamoDbLocalClientConfig(options.endpoint, options.accessKeyId);
  const reader = new StreamReader(options, config, await latestStreamArn(config, options.tableName));
  await reader.start();
  return reader;
}

/** Where reading a shard starts; `done` for a shard closed before the poller began. */
export type ShardStart = {
  shardId: string;
  parentId: string | undefined;
  from: 'LATEST' | 'TRIM_HORIZON' | 'done';
};

/**
 * The shards of `shards` not yet `known`, parents before their children. At start (`fromLatest`)
 * open shards are read from LATEST and closed ones not at all, as all they hold predates the
 * poller; shards that appear later are read from their start.
 */
export function shardStarts(
  shards: readonly Shard[],
  known: ReadonlySet<string>,
  fromLatest: boolean,
): ShardStart[] {
  const byId = new Map(shards.map((shard) => [shard.ShardId, shard]));
  // Ancestors listed with a shard; sorting by their count puts parents first (bounded against a cycle).
  const depth = (shard: Shard | undefined, limit: number): number =>
    shard?.ParentShardId && limit > 0 ? 1 + depth(byId.get(shard.ParentShardId), limit - 1) : 0;
  return [...shards]
    .sort((a, b) => depth(a, shards.length) - depth(b, shards.length))
    .filter((shard) => shard.ShardId !== undefined && !known.has(shard.ShardId))
    .map((shard) => {
      const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
      const from = !fromLatest ? 'TRIM_HORIZON' : closed ? 'done' : 'LATEST';
      return { shardId: shard.ShardId as string, parentId: shard.ParentShardId, from };
    });
}

/** Records in `readings` the reading of a shard, begun once its parent's has ended: a child's records follow its parent's. */
export function readAfterParent(
  readings: Map<string, Promise<void>>,
  { shardId, parentId }: Pick<ShardStart, 'shardId' | 'parentId'>,
  read: () => Promise<void>,
): Promise<void> {
  const parent = (parentId === undefined ? undefined : readings.get(parentId)) ?? Promise.resolve();
  const reading = parent.then(read, read);
  readings.set(shardId, reading);
  return reading;
}

class StreamReader implements StreamPoller {
  private readonly readings = new Map<string, Promise<void>>();
  /** Per shard, the tick of a fetch that found nothing with nothing left to deliver; Infinity once read to its end. */
  private readonly caughtUpAt = new Map<string, number>();
  private readonly stopped = new AbortController();
  private readonly streams: DynamoDBStreamsClient;
  private readonly onError: NonNullable<StreamPollerOptions['onError']>;
  private readonly batchSize: number;
  private tick = 0;
  private discovery: Promise<void> = Promise.resolve();
  private discoveryLoop: Promise<void> = Promise.resolve();
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly options: StreamPollerOptions,
    config: ReturnType<typeof dynamoDbLocalClientConfig>,
    readonly streamArn: string,
  ) {
    this.streams = new DynamoDBStreamsClient(config);
    this.onError = options.onError ?? logError;
    this.batchSize = options.batchSize ?? 100;
  }

  async start(): Promise<void> {
    await this.discover(true).catch(async (error: unknown) => {
      await this.stop();
      throw error;
    });
    this.discoveryLoop = (async () => {
      while (await this.pause(ShardDiscoveryIntervalMs)) {
        await this.discover().catch((error: unknown) => this.onError(error, { stage: 'poll' }));
      }
    })();
  }

  private discover(initial = false): Promise<void> {
    // One pass at a time; a failed pass (reported by its caller) must not block the next.
    this.discovery = this.discovery.catch(() => {}).then(() => this.discoverOnce(initial));
    return this.discovery;
  }

  private async discoverOnce(initial: boolean): Promise<void> {
    const fromLatest = initial && this.options.from !== 'trim_horizon';
    const known = new Set(this.readings.keys());
    for (const start of shardStarts(await this.listShards(), known, fromLatest)) {
      const { shardId, from } = start;
      if (from === 'done') {
        this.readings.set(shardId, Promise.resolve());
        this.caughtUpAt.set(shardId, Infinity);
        continue;
      }
      // LATEST is taken before start resolves, so that every later write is seen.
      const iterator = from === 'LATEST' ? await this.iterator(shardId, 'LATEST') : undefined;
      this.caughtUpAt.set(shardId, 0);
      readAfterParent(this.readings, start, () =>
        this.readShard(shardId, iterator)
          .catch((error: unknown) => this.onError(error, { stage: 'poll', shardId }))
          .finally(() => this.caughtUpAt.set(shardId, Infinity)),
      );
    }
  }

  /** Reads a shard to its end; no iterator means one must be asked for (at start, or after one expired). */
  private async readShard(shardId: string, iterator: string | undefined): Promise<void> {
    const buffer: DynamoDBRecord[] = [];
    let [attempt, failures, closed, after] = [0, 0, false, undefined as string | undefined];
    while (!this.stopped.signal.aborted) {
      let fetched: number | undefined;
      if (!closed && buffer.length < this.batchSize) {
        const startedAt = ++this.tick;
        try {
          iterator ??= await this.iterator(shardId, after ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON', after);
          const output = await this.streams.send(
            new GetRecordsCommand({ ShardIterator: iterator, Limit: 1_000 }),
          );
          // No next iterator: the shard is closed and every record in it was read.
          [iterator, closed] = [output.NextShardIterator, output.NextShardIterator === undefined];
          const records = output.Records ?? [];
          for (const record of records) {
            after = record.dynamodb?.SequenceNumber ?? after;
            const converted = toLambdaRecord(record, {
              region: DynamoDbLocalRegion,
              streamArn: this.streamArn,
            });
            if (this.options.filter?.(converted) !== false) buffer.push(converted);
          }
          if (records.length === 0 && buffer.length === 0) this.caughtUpAt.set(shardId, startedAt);
          [fetched, failures] = [records.length, 0];
        } catch (error) {
          if (error instanceof Error && error.name === 'ExpiredIteratorException') iterator = undefined;
          else this.onError(error, { stage: 'poll', shardId });
          await this.pause(this.backoff(++failures));
          continue;
        }
      }
      if (buffer.length > 0) attempt = await this.deliver(shardId, buffer, attempt);
      else if (closed) return;
      else if (fetched === 0) await this.pause(this.options.pollIntervalMs ?? 250);
    }
  }

  /**
   * Hands the head of `buffer` to the handler and removes what is done: all of it on success, the
   * records before the lowest failed one on partial failure, all of it once retries are exhausted.
   * Returns the attempt count of the checkpoint now at the head.
   */
  private async deliver(shardId: string, buffer: DynamoDBRecord[], attempts: number): Promise<number> {
    const batch = buffer.slice(0, this.batchSize);
    const [failedFrom, failure] = await this.callHandler(batch);
    const pending = batch.slice(failedFrom);
    const attempt = failedFrom === 0 ? attempts + 1 : 1;
    const discarded = attempt > (this.options.maxRetries ?? 5);
    buffer.splice(0, discarded ? batch.length : failedFrom);
    if (pending.length === 0) return 0;
    const [first, last] = [pending[0], pending.at(-1)].map((record) => record?.dynamodb?.SequenceNumber);
    const recordCount = pending.length;
    const context = { stage: 'handler', shardId, attempt, recordCount, discarded } as const;
    this.onError(failure, { ...context, firstSequenceNumber: first, lastSequenceNumber: last });
    if (discarded) return 0;
    await this.pause(this.backoff(attempt));
    return attempt;
  }

  /** The index of the first record to retry (the batch's length: none) and why, as Lambda reads the response. */
  private async callHandler(batch: DynamoDBRecord[]): Promise<[failedFrom: number, failure?: unknown]> {
    try {
      // A fresh copy per call, as Lambda sends fresh JSON: a handler that mutates records cannot
      // change what its retry sees.
      const response = await this.options.handler({ Records: structuredClone(batch) });
      const reported = response?.batchItemFailures ?? [];
      const sequenceNumbers = batch.map((record) => record.dynamodb?.SequenceNumber);
      const indexes = reported.map((item) => sequenceNumbers.indexOf(item?.itemIdentifier));
      // Like Lambda: an identifier that is not in the batch fails the whole batch.
      if (indexes.includes(-1)) return [0, new Error('batchItemFailures named a record not in the batch')];
      return [
        Math.min(batch.length, ...indexes),
        new Error(`handler reported ${reported.length} failed record(s)`),
      ];
    } catch (error) {
      return [0, error];
    }
  }

  async drain({ timeoutMs = 30_000 } = {}): Promise<void> {
    const mark = ++this.tick;
    const deadline = Date.now() + timeoutMs;
    await this.discover();
    const done = () => [...this.caughtUpAt.values()].every((caughtUpAt) => caughtUpAt > mark);
    while (!done() && (await this.pause(10))) {
      if (Date.now() > deadline)
        throw new Error(`stream of ${this.options.tableName} not drained in ${timeoutMs} ms`);
    }
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped.abort();
      await this.discoveryLoop;
      await this.discovery.catch(() => {});
      await Promise.allSettled(this.readings.values());
      this.streams.destroy();
    })();
    return this.stopping;
  }

  private async listShards(): Promise<Shard[]> {
    const shards: Shard[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription: page } = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }),
      );
      shards.push(...(page?.Shards ?? []));
      start = page?.LastEvaluatedShardId;
    } while (start);
    return shards;
  }

  private async iterator(ShardId: string, ShardIteratorType: ShardIteratorType, SequenceNumber?: string) {
    const input = { StreamArn: this.streamArn, ShardId, ShardIteratorType, SequenceNumber };
    return (await this.streams.send(new GetShardIteratorCommand(input))).ShardIterator;
  }

  private backoff(attempt: number): number {
    return Math.min((this.options.retryBackoffMs ?? 200) * 2 ** (attempt - 1), MaxBackoffMs);
  }

  /** A sleep that ends early when the poller stops; false once it has stopped. */
  private async pause(ms: number): Promise<boolean> {
    await sleep(ms, undefined, { signal: this.stopped.signal }).catch(() => {});
    return !this.stopped.signal.aborted;
  }
}

async function latestStreamArn(config: ReturnType<typeof dynamoDbLocalClientConfig>, tableName: string) {
  const dynamodb = new DynamoDBClient(config);
  const describe = dynamodb.send(new DescribeTableCommand({ TableName: tableName }));
  const { Table: table } = await describe.finally(() => dynamodb.destroy());
  if (table?.LatestStreamArn && table.StreamSpecification?.StreamEnabled === true)
    return table.LatestStreamArn;
  throw new Error(`Table ${tableName} has no stream enabled`);
}

function logError(error: unknown, context: StreamPollerErrorContext): void {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  console.error(JSON.stringify({ level: 'ERROR', source: 'stream-poller', message, ...context }));
}

/**
 * The record exactly as Lambda hands it to a stream function: attribute values stay in DynamoDB
 * JSON with binaries as base64 strings, and the creation time is epoch seconds.
 */
export function toLambdaRecord(
  record: StreamRecordSource,
  source: { region: string; streamArn: string },
): DynamoDBRecord {
  const { ApproximateCreationDateTime: created, ...rest } = record.dynamodb ?? {};
  const dynamodb = JSON.parse(JSON.stringify(rest, binariesAsBase64)) as StreamRecord;
  if (created) dynamodb.ApproximateCreationDateTime = Math.floor(created.getTime() / 1000);
  const { eventID, eventName, eventVersion = '1.1', userIdentity: identity } = record;
  return {
    ...{ eventID, eventName, eventVersion, eventSource: 'aws:dynamodb', awsRegion: source.region, dynamodb },
    eventSourceARN: source.streamArn,
    // Present only on TTL deletions; Lambda spells the fields in camel case.
    ...(identity && { userIdentity: { type: identity.Type, principalId: identity.PrincipalId } }),
  };
}

/** A JSON.stringify replacer; it reads the holder, as a Buffer's toJSON has already run on `value`. */
function binariesAsBase64(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  return raw instanceof Uint8Array ? Buffer.from(raw).toString('base64') : value;
}
