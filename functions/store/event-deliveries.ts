import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchGet } from './batch-get';
import { tableName } from './client';
import { deliveryIdOfPointer, deliveryKeyOfPointer } from './event-delivery-pointers';
import { keys, SortKeyPrefix } from './keys';
import { pageOf, type QueryPage, queryUpTo } from './query-page';

/**
 * The newest-first Query of an event's partition: its delivery pointers (`DELIVERY#<id>`) and the
 * event item (`EVENT`, which sorts above them, so a first page gets it first). A next page starts
 * below the cursor's pointer, so it reads pointers only.
 */
export function buildEventDeliveriesQuery(
  eventId: string,
  startKey: Record<string, unknown> | undefined,
): QueryCommandInput {
  return {
    TableName: tableName(),
    KeyConditionExpression: 'PK = :partition AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':partition': keys.eventPartition(eventId),
      ':from': SortKeyPrefix.webhookDelivery,
      ':to': keys.eventSortKey,
    },
    ScanIndexForward: false,
    ConsistentRead: true,
    ExclusiveStartKey: startKey,
  };
}

/** One page of an event's delivery pointers, and the event item when the page is a first one. */
export interface EventDeliveryPointersPage {
  /** The stored event, whoever's and however old (the caller checks); undefined on later pages. */
  readonly event: Record<string, unknown> | undefined;
  /** The page's pointers, newest first; their last key is the cursor. */
  readonly pointers: QueryPage;
}

/**
 * One page of the pointers to an event's deliveries (to every endpoint, and redeliveries), newest
 * first, in one Query of the event's partition, which brings the event with a first page's
 * pointers. The caller checks merchant and expiry on the event and the pointers, which carry both.
 */
export async function queryEventDeliveryPointers(
  eventId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
): Promise<EventDeliveryPointersPage> {
  // `limit + 1` pointers make `hasMore` exact; a first page also holds the event.
  const count = limit + 1 + (startKey === undefined ? 1 : 0);
  const found = await queryUpTo(buildEventDeliveriesQuery(eventId, startKey), count);
  const event = found.find((item) => item.SK === keys.eventSortKey);
  const pointers = pageOf(
    found.filter((item) => item !== event),
    { limit, keyAttributes: ['PK', 'SK'] },
  );
  return { event, pointers };
}

/**
 * The deliveries the pointers name, in the pointers' order, in one BatchGetItem (none for no
 * pointers). A delivery is created with its pointer and expires with it; one DynamoDB deleted
 * before its pointer is left out.
 */
export async function deliveriesOfPointers(
  pointers: readonly Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const items = await batchGet(pointers.map(deliveryKeyOfPointer));
  const byId = new Map(items.map((item) => [String(item.webhookDeliveryId), item]));
  return pointers.flatMap((pointer) => {
    const delivery = byId.get(deliveryIdOfPointer(pointer));
    return delivery === undefined ? [] : [delivery];
  });
}
