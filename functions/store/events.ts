import { GetCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { type DomainEvent, EventType } from '../domain/invoice';
import { merchantShardOfId } from '../domain/merchant-shards';
import { expiresAtOfEvent, retentionDays } from '../domain/retention';
import type { ShardHistory } from '../domain/shard-history';
import { documentClient, tableName } from './client';
import { type QueryPage, queryPartitionsPage, shardsOfPage } from './reads';
import { EntityType, merchantPartition, merchantShardPartition } from './table';

/**
 * The event log's partitions. A merchant's events, all of them (GSI1) or of one type (GSI2), sit in
 * the write shard of the object they are about, as that object's own items do. An object's events
 * (GSI4) have two partitions: one for the types it can have many of (an invoice's resends, a
 * payment's refunds: `repeatedEventTypeOf`), one for those it has at most once each. So one type of
 * an object's events is one partition's keys, or a few events among those it has once, never a
 * walk through its resends, and no byte is added to an event (docs/decisions/keys-for-every-filter.md).
 * Each sorts by `<createdAt>#<eventId>`.
 */
const eventsPartition = (merchantId: string, shard: number) =>
  `${merchantShardPartition(merchantId, shard)}#EVENTS`;
const eventsOfTypePartition = (merchantId: string, eventType: string, shard: number) =>
  `${merchantShardPartition(merchantId, shard)}#EVENTS#${eventType}`;
const eventsOfObjectPartition = (merchantId: string, objectId: string) =>
  `${merchantPartition(merchantId)}#OBJECT#${objectId}#EVENTS`;
const eventsOfObjectWithTypePartition = (merchantId: string, objectId: string, eventType: string) =>
  `${eventsOfObjectPartition(merchantId, objectId)}#${eventType}`;

/**
 * The one type of event an object can have many of, by the kind its id names: an invoice is sent
 * again and again, a payment refunded in parts. Every other type happens once to an object at most
 * (it is created or declined once, paid once, returned once).
 */
export function repeatedEventTypeOf(objectId: string): EventType | undefined {
  if (objectId.startsWith('inv_')) return EventType.invoiceSent;
  if (objectId.startsWith('pmt_')) return EventType.paymentRefunded;
  return undefined;
}

/** The partition of an object's events (GSI4) that holds its events of `eventType`. */
const objectEventsPartition = (merchantId: string, objectId: string, eventType: string) =>
  eventType === repeatedEventTypeOf(objectId)
    ? eventsOfObjectWithTypePartition(merchantId, objectId, eventType)
    : eventsOfObjectPartition(merchantId, objectId);
const eventPartition = (eventId: string) => `EVENT#${eventId}`;
const eventSortKey = 'EVENT';
const eventLogPosition = (createdAt: string, eventId: string) => `${createdAt}#${eventId}`;

export const eventKeys = {
  event: (eventId: string) => ({ PK: eventPartition(eventId), SK: eventSortKey }),
  /**
   * The event log's entries of an event: GSI1 the merchant's events, GSI2 those of its type, both in
   * the shard of its object (shard 0 without one); GSI4 its object's events of its type's kind.
   */
  eventIndexes: (event: {
    merchantId: string;
    eventType: string;
    eventId: string;
    createdAt: string;
    objectId: string | null;
  }) => {
    const shard = event.objectId === null ? 0 : merchantShardOfId(event.objectId);
    const position = eventLogPosition(event.createdAt, event.eventId);
    return {
      GSI1PK: eventsPartition(event.merchantId, shard),
      GSI1SK: position,
      GSI2PK: eventsOfTypePartition(event.merchantId, event.eventType, shard),
      GSI2SK: position,
      ...(event.objectId === null
        ? {}
        : {
            GSI4PK: objectEventsPartition(event.merchantId, event.objectId, event.eventType),
            GSI4SK: position,
          }),
    };
  },
  eventsPartition,
  eventsOfTypePartition,
  eventsOfObjectPartition,
  eventsOfObjectWithTypePartition,
  objectEventsPartition,
  eventLogPosition,
  eventPartition,
  eventSortKey,
} as const;

/**
 * An event of the outbox (docs/architecture.md#the-delivery-pipeline): written in the same
 * transaction as the change it reports.
 * The item also names the API request that wrote it, beside (never inside) the payload a delivery
 * sends, so the router's log line links the request to the event's deliveries. It carries its
 * event-log entries (`eventKeys.eventIndexes`) and expires with its retention (`ttl`).
 */
export function buildPutEvent(event: DomainEvent, requestId: string) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...eventKeys.event(event.eventId),
        ...eventKeys.eventIndexes(event),
        entityType: EntityType.event,
        ...event,
        requestId,
        ttl: expiresAtOfEvent(event.eventId),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** The stored event item, whoever's and however old: the caller checks merchant and expiry. */
export async function getEventItem(eventId: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: eventKeys.event(eventId), ConsistentRead: true }),
  );
  return Item;
}

export interface EventFilters {
  readonly type?: EventType | undefined;
  readonly objectId?: string | undefined;
  /** Inclusive bounds on createdAt, to the millisecond. */
  readonly createdFrom?: string | undefined;
  readonly createdTo?: string | undefined;
}

/** Where the next page of a list starts: the `<createdAt>#<eventId>` of the last event shown. */
export interface EventLogCursor {
  readonly position: string;
}

/**
 * How far before `now` an event's `createdAt` may lie and the event still be kept. An event's id is
 * minted at or after its `createdAt`, within one request (seconds); an hour of slack keeps every
 * kept event in the key range, and the `ttl` filter drops the few expired ones inside it.
 */
const keptSinceSlackMs = 60 * 60 * 1000;
const retentionMs = retentionDays * 24 * 60 * 60 * 1000;

/** The index, its key attributes and the partitions one page of the event log reads. */
function eventLogPartitions(merchantId: string, shards: ShardHistory, filters: EventFilters, upTo?: string) {
  const { objectId } = filters;
  if (objectId !== undefined) {
    // All of an object's events are its two partitions merged; one type, the partition that holds it.
    const repeated = repeatedEventTypeOf(objectId);
    const { type } = filters;
    const partitions =
      type !== undefined
        ? [eventKeys.objectEventsPartition(merchantId, objectId, type)]
        : [
            eventKeys.eventsOfObjectPartition(merchantId, objectId),
            ...(repeated === undefined
              ? []
              : [eventKeys.eventsOfObjectWithTypePartition(merchantId, objectId, repeated)]),
          ];
    return { indexName: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK', partitions };
  }
  const shardNumbers = shardsOfPage(shards, { time: upTo });
  const { type } = filters;
  return type === undefined
    ? {
        indexName: 'GSI1',
        partitionKey: 'GSI1PK',
        sortKey: 'GSI1SK',
        partitions: shardNumbers.map((shard) => eventKeys.eventsPartition(merchantId, shard)),
      }
    : {
        indexName: 'GSI2',
        partitionKey: 'GSI2PK',
        sortKey: 'GSI2SK',
        partitions: shardNumbers.map((shard) => eventKeys.eventsOfTypePartition(merchantId, type, shard)),
      };
}

/** The event id at the end of a log position. */
const eventIdOfPosition = (position: string) => position.slice(position.lastIndexOf('#') + 1);

/** The earlier of two optional ISO 8601 instants. */
function earliest(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Date.parse(a) <= Date.parse(b) ? a : b;
}

/**
 * The Queries of one page of a merchant's event log, newest first: one per write shard in force up
 * to the page's newest possible event (its cursor, or `createdTo`), or the object's one partition.
 * The created range is a key range (`<createdAt>#<eventId>` sorts by time), never narrower at the
 * old end than what retention keeps; expired events within it are filtered out.
 */
export function buildEventLogQueries(
  merchantId: string,
  shards: ShardHistory,
  filters: EventFilters,
  cursor: EventLogCursor | undefined,
  now: Date,
): { queries: QueryCommandInput[]; sortKey: string } {
  const cursorCreatedAt = cursor?.position.slice(0, cursor.position.lastIndexOf('#'));
  const index = eventLogPartitions(merchantId, shards, filters, earliest(filters.createdTo, cursorCreatedAt));
  const keptSince = new Date(now.getTime() - retentionMs - keptSinceSlackMs).toISOString();
  const from =
    filters.createdFrom === undefined
      ? keptSince
      : new Date(Math.max(Date.parse(filters.createdFrom), Date.parse(keptSince))).toISOString();
  const low = `${from}#`;
  const high = filters.createdTo === undefined ? '~' : `${new Date(filters.createdTo).toISOString()}#~`;
  // A range that ends before it starts (createdTo older than retention keeps, or before createdFrom)
  // holds no event: no Query is sent, as DynamoDB refuses a BETWEEN whose bounds are reversed.
  if (high < low) return { queries: [], sortKey: index.sortKey };
  // Among the events an object has once each, one type is a filter over a few.
  const typeFilter =
    filters.objectId !== undefined &&
    filters.type !== undefined &&
    filters.type !== repeatedEventTypeOf(filters.objectId);
  const queries = index.partitions.map(
    (partition): QueryCommandInput => ({
      TableName: tableName(),
      IndexName: index.indexName,
      KeyConditionExpression: `${index.partitionKey} = :partition AND ${index.sortKey} BETWEEN :low AND :high`,
      FilterExpression: `(attribute_not_exists(#ttl) OR #ttl > :now)${typeFilter ? ' AND eventType = :type' : ''}`,
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':partition': partition,
        ':low': low,
        ':high': high,
        ':now': Math.floor(now.getTime() / 1000),
        ...(typeFilter ? { ':type': filters.type } : {}),
      },
      ScanIndexForward: false,
      // A cursor names the last event of a page, in whichever shard: each partition goes on below it.
      ...(cursor === undefined
        ? {}
        : {
            ExclusiveStartKey: {
              ...eventKeys.event(eventIdOfPosition(cursor.position)),
              [index.partitionKey]: partition,
              [index.sortKey]: cursor.position,
            },
          }),
    }),
  );
  return { queries, sortKey: index.sortKey };
}

/** One page of the merchant's event log; the page's last key is an `EventLogCursor`. */
export async function queryEvents(
  merchantId: string,
  shards: ShardHistory,
  filters: EventFilters,
  limit: number,
  cursor: EventLogCursor | undefined,
  now: Date,
): Promise<QueryPage> {
  const { queries, sortKey } = buildEventLogQueries(merchantId, shards, filters, cursor, now);
  if (queries.length === 0) return { items: [], lastKey: undefined };
  const page = await queryPartitionsPage(queries, {
    limit,
    sortAttribute: sortKey,
    keyAttributes: [sortKey],
  });
  const last = page.lastKey?.[sortKey];
  return { items: page.items, lastKey: last === undefined ? undefined : { position: String(last) } };
}
