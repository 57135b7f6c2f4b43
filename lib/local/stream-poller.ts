import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type ShardIteratorType,
  type AttributeValue as StreamAttributeValue,
  type _Record as StreamRecordSource,
} from '@aws-sdk/client-dynamodb-streams';
import type {
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  AttributeValue as LambdaAttributeValue,
  StreamRecord as LambdaStreamRecord,
} from 'aws-lambda';
import { DynamoDbLocalRegion, dynamoDbLocalClientConfig, SharedDbAccessKeyId } from './dynamodb-local';

/** What the router Lambda is to its event source mapping: a batch in, optional partial failures out. */
export type StreamBatchHandler = (event: DynamoDBStreamEvent) => Promise<StreamBatchResult>;

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
      /** True when retries are exhausted and the records were skipped (Lambda's on-failure destination). */
      discarded: boolean;
    };

export interface StreamPollerOptions {
  tableName: string;
  handler: StreamBatchHandler;
  /** DynamoDB Local endpoint; clients are built for it with local credentials. */
  endpoint?: string | undefined;
  /** The access key of the database at `endpoint` (default `SharedDbAccessKeyId`, for a `-sharedDb` instance). */
  accessKeyId?: string | undefined;
  /** Clients to use instead of `endpoint` (they are not destroyed by stop()). */
  clients?: { dynamodb: DynamoDBClient; streams: DynamoDBStreamsClient } | undefined;
  /** Where reading starts in the shards open at start: `latest` (default) or the oldest retained record. */
  from?: 'latest' | 'trim_horizon' | undefined;
  /** Records per handler call, like the mapping's BatchSize (default 100). */
  batchSize?: number | undefined;
  /** Wait between empty GetRecords calls (default `DefaultPollIntervalMs`). */
  pollIntervalMs?: number | undefined;
  /** How often DescribeStream looks for new shards (default 2 s; drain() also looks). */
  shardDiscoveryIntervalMs?: number | undefined;
  /** Like the mapping's filter criteria: records it rejects are skipped and never delivered. */
  filter?: ((record: DynamoDBRecord) => boolean) | undefined;
  /** Retries of a failing batch before it is skipped, like MaximumRetryAttempts (default 5). */
  maxRetries?: number | undefined;
  /** First retry delay, doubled per retry up to 5 s (default 200 ms). */
  retryBackoffMs?: number | undefined;
  /** `awsRegion` in the records (default us-east-1; DynamoDB Local itself says `ddblocal`). */
  region?: string | undefined;
  /** Failures of the handler or of polling. Default: one line on stderr, without record contents. */
  onError?: ((error: unknown, context: StreamPollerErrorContext) => void) | undefined;
}

export interface StreamPoller {
  streamArn: string;
  /** Stops polling after the batches in flight; resolves when every shard loop has ended. */
  stop(): Promise<void>;
  /**
   * Resolves once every record written before the call has been handled, filtered out or
   * discarded (new shards included). Rejects after `timeoutMs` (default 30 s).
   */
  drain(options?: { timeoutMs?: number }): Promise<void>;
}

/** The wait between empty GetRecords calls unless told otherwise; the local runtime uses it. */
export const DefaultPollIntervalMs = 250;

const MaxBackoffMs = 5_000;
const GetRecordsLimit = 1_000;

interface ShardWorker {
  finished: boolean;
  /** Tick at which a fetch that found nothing new started while nothing was left to deliver. */
  caughtUpAt: number;
  loop: Promise<void>;
}

/**
 * Reads a table's stream through the DynamoDB Streams API and calls `handler` the way a Lambda
 * event source mapping would: records of a shard in order, in batches, one batch at a time per
 * shard, parents before children; a thrown error retries the batch, `batchItemFailures` retries
 * from the lowest failed sequence number (ReportBatchItemFailures), and after `maxRetries` the
 * batch is skipped and reported.
 */
export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const batchSize = positiveInteger('batchSize', options.batchSize ?? 100, 10_000);
  const maxRetries = nonNegativeInteger('maxRetries', options.maxRetries ?? 5);
  const pollIntervalMs = options.pollIntervalMs ?? DefaultPollIntervalMs;
  const retryBackoffMs = options.retryBackoffMs ?? 200;
  const region = options.region ?? DynamoDbLocalRegion;
  const onError = options.onError ?? logError;
  const { tableName, handler, filter } = options;

  if (!options.clients && !options.endpoint)
    throw new Error('startStreamPoller needs an endpoint or clients');
  const ownClients = !options.clients;
  const accessKeyId = options.accessKeyId ?? SharedDbAccessKeyId;
  const clients = options.clients ?? {
    dynamodb: new DynamoDBClient(dynamoDbLocalClientConfig(options.endpoint ?? '', accessKeyId)),
    streams: new DynamoDBStreamsClient(dynamoDbLocalClientConfig(options.endpoint ?? '', accessKeyId)),
  };

  const destroyClients = () => {
    if (!ownClients) return;
    clients.dynamodb.destroy();
    clients.streams.destroy();
  };
  let streamArn: string;
  try {
    streamArn = await latestStreamArn(clients.dynamodb, tableName);
  } catch (error) {
    destroyClients();
    throw error;
  }

  const workers = new Map<string, ShardWorker>();
  const stopController = new AbortController();
  const stopSignal = stopController.signal;
  let tick = 0;
  let discovery: Promise<void> = Promise.resolve();

  const pause = (ms: number) => abortableSleep(ms, stopSignal);
  const backoff = (attempt: number) => Math.min(retryBackoffMs * 2 ** (attempt - 1), MaxBackoffMs);

  async function listShards() {
    const shards = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const page = await clients.streams.send(
        new DescribeStreamCommand({
          StreamArn: streamArn,
          ...(exclusiveStartShardId ? { ExclusiveStartShardId: exclusiveStartShardId } : {}),
        }),
      );
      shards.push(...(page.StreamDescription?.Shards ?? []));
      exclusiveStartShardId = page.StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    return shards;
  }

  async function getIterator(shardId: string, type: ShardIteratorType, sequenceNumber?: string) {
    const output = await clients.streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: type,
        ...(sequenceNumber ? { SequenceNumber: sequenceNumber } : {}),
      }),
    );
    return output.ShardIterator;
  }

  /** Shards present at start read from LATEST (unless `from: 'trim_horizon'`); later ones from their start. */
  async function discover(initial: boolean): Promise<void> {
    const fromLatest = initial && options.from !== 'trim_horizon';
    for (const shard of parentsFirst(await listShards())) {
      const shardId = shard.ShardId;
      if (!shardId || workers.has(shardId)) continue;
      if (fromLatest && shard.SequenceNumberRange?.EndingSequenceNumber !== undefined) {
        // Everything in a closed shard predates the poller: nothing to read, but children may wait on it.
        workers.set(shardId, {
          finished: true,
          caughtUpAt: Number.POSITIVE_INFINITY,
          loop: Promise.resolve(),
        });
        continue;
      }
      // LATEST is taken before start() resolves so that every later write is seen.
      const iterator = fromLatest ? await getIterator(shardId, 'LATEST') : undefined;
      workers.set(shardId, startWorker(shardId, shard.ParentShardId, iterator));
    }
  }

  function discoverSerially(initial = false): Promise<void> {
    // One pass at a time; a failed pass (already reported by its caller) must not block the next.
    discovery = discovery.catch(() => {}).then(() => discover(initial));
    return discovery;
  }

  function startWorker(shardId: string, parentShardId: string | undefined, iterator: string | undefined) {
    const worker: ShardWorker = { finished: false, caughtUpAt: 0, loop: Promise.resolve() };
    worker.loop = runShard(worker, shardId, parentShardId, iterator)
      .catch((error: unknown) => onError(error, { stage: 'poll', shardId }))
      .finally(() => {
        worker.finished = true;
        worker.caughtUpAt = Number.POSITIVE_INFINITY;
      });
    return worker;
  }

  async function runShard(
    worker: ShardWorker,
    shardId: string,
    parentShardId: string | undefined,
    initialIterator: string | undefined,
  ): Promise<void> {
    // A child shard's records follow its parent's, so it waits until the parent is read to the end.
    const parent = parentShardId ? workers.get(parentShardId) : undefined;
    if (parent) await parent.loop;

    let iterator = initialIterator;
    let lastSequenceNumber: string | undefined;
    let failures = 0;
    while (iterator === undefined) {
      if (stopSignal.aborted) return;
      try {
        iterator = await getIterator(shardId, 'TRIM_HORIZON');
        if (iterator === undefined) return;
      } catch (error) {
        onError(error, { stage: 'poll', shardId });
        await pause(backoff(++failures));
      }
    }

    const buffer: DynamoDBRecord[] = [];
    let attempt = 0;
    while (!stopSignal.aborted) {
      let fetchedNothing = false;
      if (iterator !== undefined && buffer.length < batchSize) {
        const startedAt = ++tick;
        try {
          const output = await clients.streams.send(
            new GetRecordsCommand({ ShardIterator: iterator, Limit: GetRecordsLimit }),
          );
          iterator = output.NextShardIterator;
          const records = output.Records ?? [];
          for (const record of records) {
            lastSequenceNumber = record.dynamodb?.SequenceNumber ?? lastSequenceNumber;
            const converted = toLambdaRecord(record, { region, streamArn });
            if (accepts(converted)) buffer.push(converted);
          }
          fetchedNothing = records.length === 0;
          if (fetchedNothing && buffer.length === 0) worker.caughtUpAt = startedAt;
          failures = 0;
        } catch (error) {
          if (isExpiredIterator(error)) {
            const type = lastSequenceNumber ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON';
            iterator = await getIterator(shardId, type, lastSequenceNumber).catch(() => iterator);
          } else {
            onError(error, { stage: 'poll', shardId });
          }
          await pause(backoff(++failures));
          continue;
        }
      }

      if (buffer.length > 0) {
        attempt = await deliver(shardId, buffer, attempt);
        continue;
      }
      // No next iterator: the shard is closed and every record in it was read.
      if (iterator === undefined) return;
      if (fetchedNothing) await pause(pollIntervalMs);
    }
  }

  function accepts(record: DynamoDBRecord): boolean {
    if (!filter) return true;
    try {
      return filter(record);
    } catch (error) {
      // A broken filter must not lose records: deliver and let the handler decide.
      onError(error, { stage: 'poll' });
      return true;
    }
  }

  /**
   * Delivers the head of `buffer` and removes what is done: everything on success, the records
   * before the lowest failed one on partial failure, nothing on a throw. Returns the attempt count
   * of the checkpoint now at the head.
   */
  async function deliver(
    shardId: string,
    buffer: DynamoDBRecord[],
    previousAttempts: number,
  ): Promise<number> {
    const batch = buffer.slice(0, batchSize);
    let failedFrom: number | undefined;
    let failure: unknown;
    try {
      // A fresh copy per call, as Lambda sends fresh JSON: a handler that mutates records cannot
      // change what its retry sees.
      const response = await handler({ Records: structuredClone(batch) });
      const reported = response?.batchItemFailures ?? [];
      if (reported.length > 0) {
        const indexes = reported.map((item) =>
          batch.findIndex((record) => record.dynamodb?.SequenceNumber === item?.itemIdentifier),
        );
        // Like Lambda: an identifier that is not in the batch fails the whole batch.
        failedFrom = indexes.some((index) => index < 0) ? 0 : Math.min(...indexes);
        failure = new Error(
          indexes.some((index) => index < 0)
            ? 'batchItemFailures named a record that is not in the batch; retrying the whole batch'
            : `handler reported ${reported.length} failed record(s)`,
        );
      }
    } catch (error) {
      failedFrom = 0;
      failure = error;
    }

    if (failedFrom === undefined) {
      buffer.splice(0, batch.length);
      return 0;
    }
    let attempt = previousAttempts + 1;
    if (failedFrom > 0) {
      buffer.splice(0, failedFrom);
      attempt = 1;
    }
    const pending = batch.slice(failedFrom);
    const discarded = attempt > maxRetries;
    onError(failure, {
      stage: 'handler',
      shardId,
      attempt,
      recordCount: pending.length,
      firstSequenceNumber: pending[0]?.dynamodb?.SequenceNumber,
      lastSequenceNumber: pending.at(-1)?.dynamodb?.SequenceNumber,
      discarded,
    });
    if (discarded) {
      buffer.splice(0, pending.length);
      return 0;
    }
    await pause(backoff(attempt));
    return attempt;
  }

  try {
    await discoverSerially(true);
  } catch (error) {
    stopController.abort();
    await Promise.allSettled([...workers.values()].map((worker) => worker.loop));
    destroyClients();
    throw error;
  }
  const discoveryLoop = (async () => {
    while (!stopSignal.aborted) {
      await pause(options.shardDiscoveryIntervalMs ?? 2_000);
      if (stopSignal.aborted) break;
      await discoverSerially().catch((error: unknown) => onError(error, { stage: 'poll' }));
    }
  })();

  let stopping: Promise<void> | undefined;
  return {
    streamArn,
    stop() {
      stopping ??= (async () => {
        stopController.abort();
        await discoveryLoop;
        await discovery.catch(() => {});
        await Promise.allSettled([...workers.values()].map((worker) => worker.loop));
        destroyClients();
      })();
      return stopping;
    },
    async drain({ timeoutMs = 30_000 } = {}) {
      const mark = ++tick;
      const deadline = Date.now() + timeoutMs;
      await discoverSerially();
      while (!stopSignal.aborted) {
        if ([...workers.values()].every((worker) => worker.finished || worker.caughtUpAt > mark)) return;
        if (Date.now() > deadline)
          throw new Error(`stream of ${tableName} not drained within ${timeoutMs} ms`);
        await pause(10);
      }
    },
  };
}

async function latestStreamArn(dynamodb: DynamoDBClient, tableName: string): Promise<string> {
  const { Table: table } = await dynamodb.send(new DescribeTableCommand({ TableName: tableName }));
  if (!table?.LatestStreamArn || table.StreamSpecification?.StreamEnabled !== true) {
    throw new Error(`Table ${tableName} has no stream enabled`);
  }
  return table.LatestStreamArn;
}

/** Orders shards so that a parent listed in the same page is started before its children. */
function parentsFirst(shards: Shard[]): Shard[] {
  const byId = new Map(shards.map((shard) => [shard.ShardId, shard]));
  const ordered: Shard[] = [];
  const placed = new Set<Shard>();
  const place = (shard: Shard) => {
    if (placed.has(shard)) return;
    placed.add(shard);
    const parent = shard.ParentShardId ? byId.get(shard.ParentShardId) : undefined;
    if (parent) place(parent);
    ordered.push(shard);
  };
  for (const shard of shards) place(shard);
  return ordered;
}

function isExpiredIterator(error: unknown): boolean {
  return error instanceof Error && error.name === 'ExpiredIteratorException';
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function positiveInteger(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new RangeError(`${name} must be 1…${max}`);
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer`);
  return value;
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
  const stream = record.dynamodb;
  const dynamodb: LambdaStreamRecord = {};
  if (stream?.ApproximateCreationDateTime) {
    dynamodb.ApproximateCreationDateTime = Math.floor(stream.ApproximateCreationDateTime.getTime() / 1000);
  }
  if (stream?.Keys) dynamodb.Keys = toLambdaImage(stream.Keys);
  if (stream?.NewImage) dynamodb.NewImage = toLambdaImage(stream.NewImage);
  if (stream?.OldImage) dynamodb.OldImage = toLambdaImage(stream.OldImage);
  if (stream?.SequenceNumber !== undefined) dynamodb.SequenceNumber = stream.SequenceNumber;
  if (stream?.SizeBytes !== undefined) dynamodb.SizeBytes = stream.SizeBytes;
  if (stream?.StreamViewType !== undefined) dynamodb.StreamViewType = stream.StreamViewType;

  const converted: DynamoDBRecord = {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: source.region,
    dynamodb,
    eventSourceARN: source.streamArn,
  };
  // Present only on TTL deletions; Lambda spells the fields in camel case.
  if (record.userIdentity) {
    converted.userIdentity = { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId };
  }
  return converted;
}

function toLambdaImage(image: Record<string, StreamAttributeValue>): Record<string, LambdaAttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toLambdaValue(value)]));
}

function toLambdaValue(value: StreamAttributeValue): LambdaAttributeValue {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.SS !== undefined) return { SS: value.SS };
  if (value.NS !== undefined) return { NS: value.NS };
  if (value.BS !== undefined) return { BS: value.BS.map((item) => Buffer.from(item).toString('base64')) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  throw new Error(`unsupported attribute value type: ${Object.keys(value).join(',')}`);
}
