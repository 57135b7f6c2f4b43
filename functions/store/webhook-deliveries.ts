import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type DeliveryShardHistory, deliveryShardOf } from '../domain/delivery-shards';
import { expiresAtOfEvent, isExpired } from '../domain/retention';
import { shardsEver } from '../domain/shard-history';
import { DeliveryStatus, type WebhookDelivery } from '../domain/webhook-delivery';
import { documentClient, tableName } from './client';
import { EntityType, keys, SortKeyPrefix } from './keys';
import { mapWithConcurrency } from './map-with-concurrency';
import { byKeyAttribute, queryAll } from './query-page';

/** Where a delivery is stored: the partition of its shard under its endpoint's history. */
export function deliveryKey(
  webhookEndpointId: string,
  webhookDeliveryId: string,
  shards: DeliveryShardHistory,
) {
  return keys.webhookDelivery(
    webhookEndpointId,
    webhookDeliveryId,
    deliveryShardOf(webhookDeliveryId, shards),
  );
}

/**
 * The stored delivery; `dueAt` says when its next attempt is due while it waits for one, `shards`
 * is its endpoint's history, which places it. Every write carries its event's expiry (`ttl`), which
 * follows from the delivery alone, so a rewrite (an attempt, a pause) keeps it. Its `eventId` and
 * `createdAt` place it under its event in the event-deliveries index (GSI5), which projects only
 * what that list shows.
 */
function deliveryItem(delivery: WebhookDelivery, dueAt: string | undefined, shards: DeliveryShardHistory) {
  const waiting = delivery.status === DeliveryStatus.pending && !delivery.paused && dueAt !== undefined;
  return {
    ...deliveryKey(delivery.webhookEndpointId, delivery.webhookDeliveryId, shards),
    ...(waiting ? keys.dueDelivery(dueAt, delivery.webhookDeliveryId) : {}),
    entityType: EntityType.webhookDelivery,
    ...withoutNulls(delivery),
    ...(waiting ? { dueAt } : {}),
    ttl: expiresAtOfEvent(delivery.eventId),
  };
}

/**
 * The delivery without the fields that are null (no attempt yet, not a redelivery, no version):
 * `toDelivery` reads an absent field as null, and each stored null costs its name's bytes on every
 * write of the delivery, which is what keeps a leased delivery under 1 KB (docs/performance.md).
 */
function withoutNulls(delivery: WebhookDelivery): Partial<WebhookDelivery> {
  return Object.fromEntries(Object.entries(delivery).filter(([, value]) => value !== null));
}

/** A new delivery, only where none exists: its id is derived from event and endpoint (DESIGN §1). */
export function buildPutNewDelivery(delivery: WebhookDelivery, dueAt: string, shards: DeliveryShardHistory) {
  return {
    TableName: tableName(),
    Item: deliveryItem(delivery, dueAt, shards),
    ConditionExpression: 'attribute_not_exists(PK)',
  };
}

/**
 * What creating a delivery writes in a transaction: the delivery, only where none exists. Its
 * entry under its event (GSI5) comes with it, so listing the event's deliveries needs no item of
 * its own.
 */
export function buildCreateDelivery(delivery: WebhookDelivery, dueAt: string, shards: DeliveryShardHistory) {
  return [{ Put: buildPutNewDelivery(delivery, dueAt, shards) }] as const;
}

/**
 * Replaces a delivery with its next state only while `attemptCount` is the one the change was
 * computed from: a duplicate queue message can never record a second attempt (DESIGN §1).
 * Returns false when another writer got there first.
 */
export async function replaceDelivery(
  previous: WebhookDelivery,
  next: WebhookDelivery,
  dueAt: string | undefined,
  shards: DeliveryShardHistory,
): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: deliveryItem(next, dueAt, shards),
        ConditionExpression: 'attemptCount = :expected AND paused = :paused AND #status = :status',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':expected': previous.attemptCount,
          ':paused': previous.paused,
          ':status': previous.status,
        },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

export async function getDelivery(
  webhookEndpointId: string,
  webhookDeliveryId: string,
  shards: DeliveryShardHistory,
) {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: deliveryKey(webhookEndpointId, webhookDeliveryId, shards),
      ConsistentRead: true,
    }),
  );
  return Item === undefined ? undefined : toDelivery(Item);
}

/**
 * How many partitions (due-index shards, delivery shards) are read at once: all of them in a few
 * rounds, without a burst of Queries that would queue on the client's sockets.
 */
export const partitionReadConcurrency = 4;

/**
 * Every paused pending delivery of an endpoint: what re-enabling it resumes. Each shard the history
 * ever named is read, a few at a time.
 */
export async function pausedDeliveriesOf(
  webhookEndpointId: string,
  shards: DeliveryShardHistory,
): Promise<WebhookDelivery[]> {
  const shardNumbers = Array.from({ length: shardsEver(shards) }, (_, shard) => shard);
  const itemsOfShards = await mapWithConcurrency(shardNumbers, partitionReadConcurrency, (shard) =>
    queryAll({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :partition AND begins_with(SK, :prefix)',
      FilterExpression: 'paused = :true AND #status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':partition': keys.deliveriesPartition(webhookEndpointId, shard),
        ':prefix': SortKeyPrefix.webhookDelivery,
        ':true': true,
        ':pending': DeliveryStatus.pending,
      },
      ConsistentRead: true,
    }),
  );
  return itemsOfShards.flat().map(toDelivery);
}

/**
 * Index entries of every partition, soonest due first: GSI1SK starts with the due time, and code
 * unit order is the byte order DynamoDB sorts each partition by.
 */
export function soonestDueFirst(itemsOfPartitions: Record<string, unknown>[][]): Record<string, unknown>[] {
  return itemsOfPartitions.flat().sort(byKeyAttribute('GSI1SK'));
}

/** A delivery and the shard its item is in, which a queue message names. */
export interface PlacedDelivery {
  readonly delivery: WebhookDelivery;
  readonly shard: number;
}

/** The delivery of a stored item (or a stream image of one) and its shard. */
export function placedDelivery(item: Record<string, unknown>): PlacedDelivery {
  return { delivery: toDelivery(item), shard: keys.shardOfDeliveriesPartition(String(item.PK)) };
}

/** A delivery that waits for an attempt, and when that attempt is due. */
export interface WaitingDelivery extends PlacedDelivery {
  readonly dueAt: string;
  /** Until when a dispatcher holds the delivery's next attempt, when one took it (ISO 8601). */
  readonly leaseUntil?: string | undefined;
}

/**
 * Every delivery that waits for an attempt (pending, not paused), soonest due first: what a local
 * runtime re-enqueues when it starts, as its in-process queue kept nothing. One Query per page of
 * each partition (each shard and the legacy one), without the running recoveries' entries.
 */
export async function waitingDeliveries(): Promise<WaitingDelivery[]> {
  const partitions = await mapWithConcurrency(
    keys.dueDeliveriesPartitions(),
    partitionReadConcurrency,
    (partition) =>
      queryAll({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :partition',
        // A running recovery's entry shares the partitions (`keys.recoveryNudge`); it is no delivery.
        FilterExpression: 'entityType = :delivery',
        ExpressionAttributeValues: { ':partition': partition, ':delivery': EntityType.webhookDelivery },
      }),
  );
  const now = new Date();
  return soonestDueFirst(partitions)
    .filter((item) => !isExpired(item, now))
    .map((item) => ({
      ...placedDelivery(item),
      dueAt: String(item.dueAt),
      ...(typeof item.leaseUntil === 'string' ? { leaseUntil: item.leaseUntil } : {}),
    }));
}

export function toDelivery(item: Record<string, unknown>): WebhookDelivery {
  return {
    webhookDeliveryId: String(item.webhookDeliveryId),
    webhookEndpointId: String(item.webhookEndpointId),
    merchantId: String(item.merchantId),
    eventId: String(item.eventId),
    eventType: item.eventType as WebhookDelivery['eventType'],
    data: (item.data ?? {}) as WebhookDelivery['data'],
    status: item.status as WebhookDelivery['status'],
    attemptCount: Number(item.attemptCount),
    attempts: (item.attempts ?? []) as WebhookDelivery['attempts'],
    createdAt: String(item.createdAt),
    lastAttemptAt: typeof item.lastAttemptAt === 'string' ? item.lastAttemptAt : null,
    redeliveredFromId: typeof item.redeliveredFromId === 'string' ? item.redeliveredFromId : null,
    paused: item.paused === true,
    // Deliveries written before sequences and object versions were kept have none (docs/decisions.md).
    sequence: typeof item.sequence === 'number' ? item.sequence : null,
    objectVersion: typeof item.objectVersion === 'number' ? item.objectVersion : null,
    ...(item.test === true ? { test: true as const } : {}),
  };
}

/**
 * `leaseDelivery` for a delivery known only by a queue message that names its shard: the lease's
 * conditions, checked against the message's attempt count, in one write that also returns the
 * delivery, so no read comes before it. Undefined when the conditions fail (a duplicate or stale
 * message, or no such delivery: a missing item meets no condition).
 */
export async function claimDelivery(
  message: { webhookEndpointId: string; webhookDeliveryId: string; attemptCount: number },
  shard: number,
  now: Date,
  leaseUntil: Date,
): Promise<WebhookDelivery | undefined> {
  try {
    const key = keys.webhookDelivery(message.webhookEndpointId, message.webhookDeliveryId, shard);
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        ...buildLease(key, message.attemptCount, now, leaseUntil),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes === undefined ? undefined : toDelivery(Attributes);
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/** A lease is taken only for the attempt a delivery waits for, and only when no unexpired one is held. */
function buildLease(key: { PK: string; SK: string }, attemptCount: number, now: Date, leaseUntil: Date) {
  return {
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'SET leaseUntil = :until',
    // An expired delivery (its event's retention has passed) is never attempted again.
    ConditionExpression:
      'attemptCount = :expected AND paused = :false AND #status = :pending AND ' +
      '(attribute_not_exists(leaseUntil) OR leaseUntil < :now) AND ' +
      '(attribute_not_exists(#ttl) OR #ttl > :nowSeconds)',
    ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
    ExpressionAttributeValues: {
      ':until': leaseUntil.toISOString(),
      ':now': now.toISOString(),
      ':nowSeconds': Math.floor(now.getTime() / 1000),
      ':expected': attemptCount,
      ':false': false,
      ':pending': DeliveryStatus.pending,
    },
  };
}

/**
 * Takes the right to make the next attempt of a delivery until `leaseUntil`: only while the
 * delivery still waits for exactly that attempt and no other dispatcher holds an unexpired lease.
 * A duplicate queue message therefore sends no second POST; a dispatcher that dies mid-attempt
 * frees it when the lease runs out (before its message becomes visible again).
 */
export async function leaseDelivery(
  delivery: WebhookDelivery,
  now: Date,
  leaseUntil: Date,
  shards: DeliveryShardHistory,
): Promise<boolean> {
  try {
    const key = deliveryKey(delivery.webhookEndpointId, delivery.webhookDeliveryId, shards);
    await documentClient().send(new UpdateCommand(buildLease(key, delivery.attemptCount, now, leaseUntil)));
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
