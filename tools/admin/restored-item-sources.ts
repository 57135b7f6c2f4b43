import {
  BatchGetItemCommand,
  type DynamoDBClient,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { invoiceSlugHash } from '../../functions/domain/invoice-slug';
import { maxShardCount } from '../../functions/domain/shard-history';
import { EntityType, keys, SortKeyPrefix } from '../../functions/store/keys';
import { type JitterRetry, retryWithJitter } from '../../functions/store/transaction';
import type { StoredItem } from './same-item';

/** Which items of the restored table to bring back: a merchant's, or those of a range of partition keys. */
export type ItemSelection =
  | { readonly kind: 'merchant'; readonly merchantId: string }
  | { readonly kind: 'keyRange'; readonly fromKey: string; readonly toKey: string };

/** Hands each page of selected items to `onPage`, and resolves once every page was handled. */
export type ItemSource = (onPage: (items: StoredItem[]) => Promise<void>) => Promise<void>;

/**
 * What a merchant selection cannot find: idempotency records are keyed by a hash that folds the
 * merchant in with the request's key and carry no merchant id; they only replay a request for 24 h.
 * Portal sessions are keyed by their id alone, and no index holds them by merchant.
 */
export const notCoveredByMerchant =
  'idempotency records (PK IDEMPOTENCY#<scope hash>) carry no merchant id, and portal sessions (PK PORTALSESSION#<id>) are keyed by their id alone: neither is copied; copy them by key range if needed';

/** Parallel segments of a key-range Scan: a restored table is read by nothing else. */
const scanSegments = 4;

export function restoredItemSource(client: DynamoDBClient, tableName: string, selection: ItemSelection) {
  return selection.kind === 'merchant'
    ? merchantItems(client, tableName, selection.merchantId)
    : keyRangeItems(client, tableName, selection.fromKey, selection.toKey);
}

/** Every shard a merchant may have: querying one that never held an item costs one empty Query. */
const everyShard = Array.from({ length: maxShardCount }, (_, shard) => shard);

/**
 * A merchant's items wherever they are keyed (`functions/store/keys.ts`): its partitions and
 * shards; its API keys and events through GSI1; its endpoints' deliveries partitions; the pay-link
 * lookup item of each of its invoices, whose key is the hash of the slug the invoice holds.
 */
function merchantItems(client: DynamoDBClient, tableName: string, merchantId: string): ItemSource {
  return async (onPage) => {
    const endpointIds = new Set<string>();
    const slugKeys: StoredItem[] = [];
    const noteDerivedKeys = (items: StoredItem[]) => {
      for (const item of items) {
        const endpointId = endpointIdOf(item);
        if (endpointId !== undefined) endpointIds.add(endpointId);
        const slug = item.entityType?.S === EntityType.invoice ? item.invoiceUrlSlug?.S : undefined;
        if (slug !== undefined) slugKeys.push(keyItem(keys.invoiceSlug(invoiceSlugHash(slug))));
      }
    };
    for (const shard of everyShard) {
      await queryAll(
        client,
        partitionQuery(tableName, keys.merchantShardPartition(merchantId, shard)),
        (items) => {
          noteDerivedKeys(items);
          return onPage(items);
        },
      );
    }
    const indexPartitions = [
      keys.apiKeysOfMerchantPartition(merchantId),
      ...everyShard.map((shard) => keys.eventsPartition(merchantId, shard)),
    ];
    for (const partition of indexPartitions) {
      await queryAll(client, gsi1Query(tableName, partition), onPage);
    }
    for (const endpointId of endpointIds) {
      for (const shard of everyShard) {
        await queryAll(
          client,
          partitionQuery(tableName, keys.deliveriesPartition(endpointId, shard)),
          onPage,
        );
      }
    }
    for (let index = 0; index < slugKeys.length; index += batchGetLimit) {
      const found = await batchGetItems(
        client,
        tableName,
        slugKeys.slice(index, index + batchGetLimit),
        false,
      );
      await onPage(found.filter((item) => item.merchantId?.S === merchantId));
    }
  };
}

/** An endpoint's id from its item, or from its delivery sequence, which outlives a deleted endpoint. */
function endpointIdOf(item: StoredItem): string | undefined {
  const sortKey = item.SK?.S ?? '';
  for (const prefix of [SortKeyPrefix.webhookEndpoint, SortKeyPrefix.webhookDeliverySequence]) {
    if (sortKey.startsWith(prefix)) return sortKey.slice(prefix.length);
  }
  return undefined;
}

/**
 * The items whose partition key lies from `fromKey` to `toKey` (both included, in DynamoDB's
 * byte order): no index orders partition keys, so the whole restored table is scanned.
 */
function keyRangeItems(
  client: DynamoDBClient,
  tableName: string,
  fromKey: string,
  toKey: string,
): ItemSource {
  return async (onPage) => {
    const segment = async (Segment: number) => {
      let startKey: StoredItem | undefined;
      do {
        const page = await client.send(
          new ScanCommand({
            TableName: tableName,
            Segment,
            TotalSegments: scanSegments,
            FilterExpression: 'PK BETWEEN :from AND :to',
            ExpressionAttributeValues: { ':from': { S: fromKey }, ':to': { S: toKey } },
            ExclusiveStartKey: startKey,
          }),
        );
        await onPage(page.Items ?? []);
        startKey = page.LastEvaluatedKey;
      } while (startKey !== undefined);
    };
    await Promise.all(Array.from({ length: scanSegments }, (_, index) => segment(index)));
  };
}

function partitionQuery(tableName: string, partition: string): QueryCommandInput {
  return {
    TableName: tableName,
    KeyConditionExpression: 'PK = :partition',
    ExpressionAttributeValues: { ':partition': { S: partition } },
  };
}

/** GSI1 projects every attribute, so its entries are the items themselves. */
function gsi1Query(tableName: string, partition: string): QueryCommandInput {
  return {
    TableName: tableName,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :partition',
    ExpressionAttributeValues: { ':partition': { S: partition } },
  };
}

async function queryAll(
  client: DynamoDBClient,
  input: QueryCommandInput,
  onPage: (items: StoredItem[]) => Promise<void>,
): Promise<void> {
  let startKey: StoredItem | undefined;
  do {
    const page = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    await onPage(page.Items ?? []);
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
}

/** BatchGetItem takes at most 100 keys per request. */
export const batchGetLimit = 100;

/** Keys left unprocessed (throttled) are asked again, 10 requests at most, with growing jitter. */
const unprocessedRetry: JitterRetry = { attempts: 10, baseMs: 50, capMs: 5_000 };

class UnprocessedKeys extends Error {
  override name = 'UnprocessedKeys';
}

/** The items of up to 100 `itemKeys` that exist in `tableName`, in any order. */
export async function batchGetItems(
  client: DynamoDBClient,
  tableName: string,
  itemKeys: readonly StoredItem[],
  consistent: boolean,
): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  let pending: StoredItem[] = [...itemKeys];
  if (pending.length === 0) return items;
  await retryWithJitter(
    unprocessedRetry,
    async () => {
      const result = await client.send(
        new BatchGetItemCommand({
          RequestItems: { [tableName]: { Keys: pending, ConsistentRead: consistent } },
        }),
      );
      items.push(...(result.Responses?.[tableName] ?? []));
      pending = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
      if (pending.length > 0) throw new UnprocessedKeys('BatchGetItem left keys unprocessed');
    },
    (error) => error instanceof UnprocessedKeys,
  );
  return items;
}

/** The primary key of an item, as a key of BatchGetItem. */
export function keyItem(key: { readonly PK: string; readonly SK: string }): StoredItem {
  return { PK: { S: key.PK }, SK: { S: key.SK } };
}
