import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';

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
  return queryPage(
    {
      TableName: tableName,
      KeyConditionExpression: 'PK = :partition AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':partition': merchantPartition, ':prefix': sortKeyPrefix },
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
