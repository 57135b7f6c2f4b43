import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { typeIdMilliseconds } from '../domain/id-time-bounds';
import { type ShardHistory, shardCountAt } from '../domain/shard-history';
import { documentClient, tableName } from './client';
import { sortKeyPrefixRange } from './table';
import { type JitterRetry, retryWithJitter } from './transaction';

export interface QueryPage {
  readonly items: Record<string, unknown>[];
  /** Key of the last returned item when more items follow; exact, not DynamoDB's guess. */
  readonly lastKey: Record<string, unknown> | undefined;
}

/**
 * One page of a Query. It asks for `limit + 1` items so `hasMore` is exact: the extra item is not
 * returned, it only proves that another page exists. Without a filter that is one round trip; a
 * FilterExpression drops items after DynamoDB's Limit, so then it reads on until the page is full.
 */
export async function queryPage(
  input: QueryCommandInput,
  page: { limit: number; startKey: Record<string, unknown> | undefined; keyAttributes: readonly string[] },
): Promise<QueryPage> {
  const found = await queryUpTo({ ...input, ExclusiveStartKey: page.startKey }, page.limit + 1);
  return pageOf(found, page);
}

/** The first `limit` of `found` (up to `limit + 1` items), and the key to go on from when more follow. */
export function pageOf(
  found: readonly Record<string, unknown>[],
  page: { limit: number; keyAttributes: readonly string[] },
): QueryPage {
  const items = found.slice(0, page.limit);
  const last = items.at(-1);
  const lastKey =
    found.length > page.limit && last !== undefined
      ? Object.fromEntries(page.keyAttributes.map((name) => [name, last[name]]))
      : undefined;
  return { items, lastKey };
}

/**
 * The first `count` items a Query yields, in its order. Without a filter that is one round trip; a
 * FilterExpression drops items after DynamoDB's Limit, so then it reads on until it has them all.
 */
export async function queryUpTo(input: QueryCommandInput, count: number): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let startKey = input.ExclusiveStartKey;
  do {
    const result = await documentClient().send(
      new QueryCommand({ ...input, Limit: count - found.length, ExclusiveStartKey: startKey }),
    );
    found.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (input.FilterExpression !== undefined && startKey !== undefined && found.length < count);
  return found;
}

/**
 * One page of a merchant's items of one kind, newest first: ids are time-ordered TypeIDs, so the
 * sort key (`<prefix><id>`) orders by creation.
 */
export function queryMerchantItems(
  tableName: string,
  merchantPartition: string,
  sortKeyPrefix: string,
  page: { limit: number; startKey: Record<string, unknown> | undefined },
): Promise<QueryPage> {
  const { keyCondition, values } = sortKeyPrefixRange(sortKeyPrefix);
  return queryPage(
    {
      TableName: tableName,
      KeyConditionExpression: keyCondition,
      ExpressionAttributeValues: {
        ':partition': merchantPartition,
        ...values,
      },
      ScanIndexForward: false,
    },
    { ...page, keyAttributes: ['PK', 'SK'] },
  );
}

/**
 * One page, newest first, of items that several partitions hold and sort alike (an item's shards):
 * one Query per partition, already placed below the cursor and each for `limit + 1` items, run
 * together. The newest `limit + 1` overall are among the newest `limit + 1` of each, so merging them
 * by `sortAttribute` gives the page and an exact `hasMore`; the last key keeps the form of a single
 * partition's, so a cursor reads the same whatever the number of partitions. One partition is
 * exactly `queryPage`.
 */
export async function queryPartitionsPage(
  inputs: readonly QueryCommandInput[],
  page: { limit: number; sortAttribute: string; keyAttributes: readonly string[] },
): Promise<QueryPage> {
  const found = await Promise.all(inputs.map((input) => queryUpTo(input, page.limit + 1)));
  return newestPage(found.flat(), page);
}

/** The newest `limit` of items gathered from several partitions, and the key to go on from. */
export function newestPage(
  gathered: readonly Record<string, unknown>[],
  page: { limit: number; sortAttribute: string; keyAttributes: readonly string[] },
): QueryPage {
  const oldestFirst = byKeyAttribute(page.sortAttribute);
  return pageOf([...gathered].sort((a, b) => oldestFirst(b, a)).slice(0, page.limit + 1), page);
}

/** The table key of an item or of an index entry that names it. */
export const tableKeyOf = (entry: Record<string, unknown>) => ({
  PK: String(entry.PK),
  SK: String(entry.SK),
});
const keyId = (entry: Record<string, unknown>) => `${String(entry.PK)}\n${String(entry.SK)}`;

/**
 * The items of a page of keys-only index entries, in the entries' order, read strongly consistent
 * in one `BatchGetItem` (none for an empty page). An index follows the table a moment late, so an
 * item that no longer `matches` the filter its entry was found by is left out; the page goes on
 * from its last entry.
 */
export async function itemsOfEntries(
  page: QueryPage,
  matches: (item: Record<string, unknown>) => boolean,
): Promise<QueryPage> {
  const found = new Map((await batchGet(page.items.map(tableKeyOf))).map((item) => [keyId(item), item]));
  const items = page.items.flatMap((entry) => {
    const item = found.get(keyId(entry));
    return item !== undefined && matches(item) ? [item] : [];
  });
  return { items, lastKey: page.lastKey };
}

/** Every item a Query finds, page after page: for the small, bounded sets the pipeline reads whole. */
export async function queryAll(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    found.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return found;
}

/**
 * Orders items of several partitions by one key attribute, ascending, as DynamoDB orders each
 * partition: every key here is ASCII, whose code unit order is its byte order.
 */
export function byKeyAttribute(attribute: string) {
  return (a: Record<string, unknown>, b: Record<string, unknown>): number => {
    const [left, right] = [String(a[attribute]), String(b[attribute])];
    if (left === right) return 0;
    return left < right ? -1 : 1;
  };
}

/** BatchGetItem takes at most 100 keys per request. */
const batchLimit = 100;

/**
 * The items of `allKeys` that exist, in any order: 100 keys a request, requests in parallel, keys
 * left unprocessed asked again. Strongly consistent, so an item written a moment ago is seen.
 */
export async function batchGet(allKeys: Record<string, string>[]): Promise<Record<string, unknown>[]> {
  const chunks: Record<string, string>[][] = [];
  for (let index = 0; index < allKeys.length; index += batchLimit)
    chunks.push(allKeys.slice(index, index + batchLimit));
  const pages = await Promise.all(chunks.map((chunk) => batchGetChunk(chunk)));
  return pages.flat();
}

/** Keys left unprocessed (throttled) are asked again, 10 requests at most, with growing jitter. */
const unprocessedRetry: JitterRetry = { attempts: 10, baseMs: 50, capMs: Number.POSITIVE_INFINITY };

class UnprocessedKeys extends Error {
  override name = 'UnprocessedKeys';
}

async function batchGetChunk(chunk: Record<string, string>[]): Promise<Record<string, unknown>[]> {
  const table = tableName();
  const items: Record<string, unknown>[] = [];
  let pending: Record<string, unknown>[] = chunk;
  await retryWithJitter(
    unprocessedRetry,
    async () => {
      const result: BatchGetCommandOutput = await documentClient().send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
      );
      items.push(...(result.Responses?.[table] ?? []));
      pending = result.UnprocessedKeys?.[table]?.Keys ?? [];
      if (pending.length > 0) throw new UnprocessedKeys('BatchGetItem left keys unprocessed');
    },
    (error) => error instanceof UnprocessedKeys,
  );
  return items;
}

/**
 * The shards a list page reads, of a merchant or of an endpoint's deliveries: every one in force up
 * to the newest item the page can hold (its cursor's item, or the end of its time range), so pages
 * older than the first raise read shard 0 alone. One that never raised its count reads only shard
 * 0, as before shards.
 */
export function shardsOfPage(
  history: ShardHistory,
  upTo: { id?: string | undefined; time?: string | undefined },
) {
  const bounds = [
    upTo.id === undefined ? Number.POSITIVE_INFINITY : idMilliseconds(upTo.id),
    upTo.time === undefined ? Number.POSITIVE_INFINITY : Date.parse(upTo.time),
  ];
  const count = shardCountAt(history, Math.min(...bounds));
  return Array.from({ length: count }, (_, shard) => shard);
}

/** A cursor's id, signed by us; anything unreadable counts as the newest time, reading every shard. */
function idMilliseconds(id: string): number {
  try {
    return typeIdMilliseconds(id);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * Runs `task` for every item with at most `concurrency` of them in flight, and resolves with the
 * results in the order of `items`. The first failure rejects; tasks already started still finish.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
