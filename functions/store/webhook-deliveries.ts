import { GetCommand, PutCommand, type QueryCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { numberDeliveries } from '../domain/delivery-sequence';
import { type DeliveryShardHistory, deliveryShardOf } from '../domain/delivery-shards';
import { expiresAtOfEvent, isExpired } from '../domain/retention';
import { shardsEver } from '../domain/shard-history';
import { DeliveryStatus, type WebhookDelivery, withSequence } from '../domain/webhook-delivery';
import { isLive } from '../domain/webhook-endpoint';
import { documentClient, tableName } from './client';
import { commitWithIdempotency, type IdempotencyContext, type StoredResponse } from './idempotency';
import {
  batchGet,
  byKeyAttribute,
  mapWithConcurrency,
  newestPage,
  pageOf,
  type QueryPage,
  queryAll,
  queryUpTo,
  shardsOfPage,
  tableKeyOf,
} from './reads';
import {
  deliveriesPartition,
  dueDeliveriesPartitions,
  dueIndexEntry,
  EntityType,
  SortKeyPrefix,
  shardOfDeliveriesPartition,
  sortKeyPrefixRange,
} from './table';
import { sendTransaction, type TransactItems, TransactionConditionFailed } from './transaction';
import {
  buildAdvanceSequence,
  type DeliveriesMarker,
  endpointKeys,
  getEndpoint,
  lastSequenceOf,
  type StoredWebhookEndpoint,
  toDeliveriesMarker,
  toStoredEndpoint,
  withNextNumbers,
} from './webhook-endpoints';

/** The key condition of a partition's deliveries (`DELIVERY#…`), as the range DynamoDB Local indexes. */
const deliveriesRange = sortKeyPrefixRange(SortKeyPrefix.webhookDelivery);

const deliveriesOfStatusPartition = (webhookEndpointId: string, status: DeliveryStatus, shard: number) =>
  `${deliveriesPartition(webhookEndpointId, shard)}#${status}`;

export const deliveryKeys = {
  /**
   * An endpoint's deliveries, newest first by their time-ordered ids, in the partition of their
   * shard (`deliveryShardOf`).
   */
  webhookDelivery: (webhookEndpointId: string, webhookDeliveryId: string, shard: number) => ({
    PK: deliveriesPartition(webhookEndpointId, shard),
    SK: `${SortKeyPrefix.webhookDelivery}${webhookDeliveryId}`,
  }),
  /**
   * GSI1 of a delivery that waits for an attempt (pending, not paused), in its shard, sorted by
   * when it is due: the reconciler reads the overdue ones. Sparse: finished and paused deliveries
   * carry no GSI1 key.
   */
  dueDelivery: dueIndexEntry,
  /**
   * GSI6 (keys only): an endpoint's deliveries of one status, in the partition of their shard,
   * newest first. Written with the delivery and moved by a change of status, never by an attempt
   * that leaves the status alone or by a lease.
   */
  deliveryOfStatus: (webhookEndpointId: string, status: DeliveryStatus, shard: number) => ({
    GSI6PK: deliveriesOfStatusPartition(webhookEndpointId, status, shard),
  }),
  deliveriesOfStatusPartition,
} as const;

/** Where a delivery is stored: the partition of its shard under its endpoint's history. */
export function deliveryKey(
  webhookEndpointId: string,
  webhookDeliveryId: string,
  shards: DeliveryShardHistory,
) {
  return deliveryKeys.webhookDelivery(
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
  const shard = deliveryShardOf(delivery.webhookDeliveryId, shards);
  return {
    ...deliveryKeys.webhookDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, shard),
    ...deliveryKeys.deliveryOfStatus(delivery.webhookEndpointId, delivery.status, shard),
    ...(waiting ? deliveryKeys.dueDelivery(dueAt, delivery.webhookDeliveryId) : {}),
    entityType: EntityType.webhookDelivery,
    ...withoutNulls(delivery),
    ttl: expiresAtOfEvent(delivery.eventId),
  };
}

/**
 * The delivery without the fields that are null (no attempt yet, not a redelivery, no version) and
 * without `lastAttemptAt`, which is its last attempt's time: `toDelivery` reads an absent field as
 * null and the time from the attempts, and each stored byte is paid on every write of the delivery,
 * which is what keeps a leased delivery under 1 KB beside its status list's key (docs/performance.md).
 */
function withoutNulls(delivery: WebhookDelivery): Partial<WebhookDelivery> {
  const { lastAttemptAt: _derived, ...stored } = delivery;
  return Object.fromEntries(Object.entries(stored).filter(([, value]) => value !== null));
}

/** A new delivery, only where none exists: its id is derived from event and endpoint. */
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
 * computed from: a duplicate queue message can never record a second attempt
 * (docs/architecture.md#the-delivery-pipeline).
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
      KeyConditionExpression: deliveriesRange.keyCondition,
      FilterExpression: 'paused = :true AND #status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':partition': deliveriesPartition(webhookEndpointId, shard),
        ...deliveriesRange.values,
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
  return { delivery: toDelivery(item), shard: shardOfDeliveriesPartition(String(item.PK)) };
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
 * each shard of the index, without the running recoveries' entries.
 */
export async function waitingDeliveries(): Promise<WaitingDelivery[]> {
  const partitions = await mapWithConcurrency(
    dueDeliveriesPartitions(),
    partitionReadConcurrency,
    (partition) =>
      queryAll({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :partition',
        // A running recovery's entry shares the partitions (`recoveryKeys.recoveryNudge`); it is no delivery.
        FilterExpression: 'entityType = :delivery',
        ExpressionAttributeValues: { ':partition': partition, ':delivery': EntityType.webhookDelivery },
      }),
  );
  const now = new Date();
  return soonestDueFirst(partitions)
    .filter((item) => !isExpired(item, now))
    .map((item) => ({
      ...placedDelivery(item),
      dueAt: dueAtOf(item),
      ...leaseOf(item),
    }));
}

/**
 * When a waiting delivery's attempt is due: the time its due entry (`GSI1SK`, `<dueAt>#<id>`) starts
 * with, as no byte of the delivery repeats it; kept beside it by releases before that.
 */
function dueAtOf(item: Record<string, unknown>): string {
  if (typeof item.dueAt === 'string') return item.dueAt;
  const position = String(item.GSI1SK);
  return position.slice(0, position.indexOf('#'));
}

/** The lease a stored delivery carries while a dispatcher holds its next attempt, if any. */
function leaseOf(item: Record<string, unknown>): { leaseUntil?: string } {
  return typeof item.leaseUntil === 'string' ? { leaseUntil: item.leaseUntil } : {};
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
    // Kept by releases before it was derived; else the last attempt's time.
    lastAttemptAt:
      typeof item.lastAttemptAt === 'string'
        ? item.lastAttemptAt
        : ((item.attempts as WebhookDelivery['attempts'] | undefined)?.at(-1)?.attemptedAt ?? null),
    redeliveredFromId: typeof item.redeliveredFromId === 'string' ? item.redeliveredFromId : null,
    paused: item.paused === true,
    // Null as in the domain: not numbered yet, or an event about an object without versions.
    sequence: typeof item.sequence === 'number' ? item.sequence : null,
    objectVersion: typeof item.objectVersion === 'number' ? item.objectVersion : null,
    ...(item.test === true ? { test: true as const } : {}),
    ...(typeof item.targetUrl === 'string' ? { targetUrl: item.targetUrl } : {}),
  };
}

/**
 * Takes the right to make the next attempt of the delivery a queue message names, until
 * `leaseUntil`: only while the delivery still waits for exactly that attempt and no other
 * dispatcher holds an unexpired lease. A duplicate message therefore sends no second POST; a
 * dispatcher that dies mid-attempt frees it when the lease runs out (before its message becomes
 * visible again). One write that also returns the delivery, so no read comes before it. Undefined
 * when the conditions fail (a duplicate or stale message, or no such delivery: a missing item meets
 * no condition).
 */
export async function claimDelivery(
  message: { webhookEndpointId: string; webhookDeliveryId: string; attemptCount: number },
  shard: number,
  now: Date,
  leaseUntil: Date,
): Promise<WebhookDelivery | undefined> {
  try {
    const key = deliveryKeys.webhookDelivery(message.webhookEndpointId, message.webhookDeliveryId, shard);
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

/** DynamoDB's limit on the actions of one TransactWriteItems. */
export const maxActionsPerTransaction = 100;

/** Creating a delivery takes one action: the delivery's put (`buildCreateDelivery`). */
const actionsPerDelivery = 1;

/**
 * What the items of one transaction may weigh by their JSON size. DynamoDB refuses a transaction
 * over 4 MB; JSON overstates an item's stored size (quotes, braces), and the margin covers the rest.
 */
export const maxTransactionJsonBytes = 3_000_000;

/** What a sequence Update weighs at most by the same measure: a few short attributes. */
const sequenceUpdateJsonBytes = 1_000;

/**
 * How often a transaction is sent again after a failed condition: each round drops deliveries
 * that exist or takes the numbers another writer left. Past it the stream batch is retried.
 */
const maxRounds = 25;

/** A delivery to create, with its endpoint's shard history, which places it. */
export interface NewDelivery {
  readonly delivery: WebhookDelivery;
  readonly shards: DeliveryShardHistory;
}

/**
 * The new deliveries grouped into as few transactions as DynamoDB's limits allow, in the order
 * given: each group's puts (one per delivery) plus one sequence Update per endpoint it names stay
 * within 100 actions, and its items within the size budget. A delivery named twice is kept once: a transaction may not
 * name an item twice.
 */
export function groupNewDeliveries(deliveries: readonly NewDelivery[]): NewDelivery[][] {
  const groups: NewDelivery[][] = [];
  let current: NewDelivery[] = [];
  let endpoints = new Set<string>();
  let currentBytes = 0;
  const seen = new Set<string>();
  for (const each of deliveries) {
    const { delivery, shards } = each;
    if (seen.has(delivery.webhookDeliveryId)) continue;
    seen.add(delivery.webhookDeliveryId);
    const newEndpoint = !endpoints.has(delivery.webhookEndpointId);
    const actions = (current.length + 1) * actionsPerDelivery + endpoints.size + (newEndpoint ? 1 : 0);
    const bytes =
      buildCreateDelivery(delivery, delivery.createdAt, shards).reduce(
        (sum, { Put }) => sum + Buffer.byteLength(JSON.stringify(Put.Item)),
        0,
      ) + (newEndpoint ? sequenceUpdateJsonBytes : 0);
    if (actions > maxActionsPerTransaction || currentBytes + bytes > maxTransactionJsonBytes) {
      if (current.length > 0) groups.push(current);
      current = [];
      endpoints = new Set();
      currentBytes = bytes + (newEndpoint ? 0 : sequenceUpdateJsonBytes);
    } else {
      currentBytes += bytes;
    }
    current.push(each);
    endpoints.add(delivery.webhookEndpointId);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * One group's transaction: the conditional put of each delivery, numbered in its endpoint's
 * sequence from `lastSequences`, then one Update per endpoint advancing its sequence by its number
 * of deliveries. The puts come first, one per delivery, so a failed condition's index below
 * `group.length` names a delivery that exists (`deliveryOfAction`) and
 * one at or above it an endpoint whose sequence moved.
 */
export function buildNumberedTransaction(
  group: readonly NewDelivery[],
  lastSequences: ReadonlyMap<string, number>,
) {
  const { numbered, advances } = numberDeliveries(
    group.map(({ delivery }) => delivery),
    lastSequences,
  );
  // No ALL_OLD on the puts: the router only needs to know which deliveries exist, not their content.
  const items: TransactItems = [
    ...numbered.flatMap((delivery, index) =>
      buildCreateDelivery(delivery, delivery.createdAt, group[index]?.shards ?? []),
    ),
    ...advances.map((advance) => buildAdvanceSequence(advance)),
  ];
  return { items, advances };
}

/** The delivery of the group an action of its transaction creates, or undefined for a sequence Update. */
export function deliveryOfAction(actionIndex: number, groupLength: number): number | undefined {
  return actionIndex < groupLength * actionsPerDelivery
    ? Math.floor(actionIndex / actionsPerDelivery)
    : undefined;
}

/**
 * Creates every delivery that does not exist yet, each numbered in its endpoint's sequence, leaving
 * existing ones untouched, and resolves with the number created; `lastSequences` holds each endpoint's
 * last number as read, 0 when absent (docs/decisions/delivery-sequence-numbers-and-object-versions.md).
 */
export async function putNewDeliveries(
  deliveries: readonly NewDelivery[],
  lastSequences: ReadonlyMap<string, number> = new Map(),
): Promise<number> {
  const sequences = new Map(lastSequences);
  let created = 0;
  for (const group of groupNewDeliveries(deliveries)) {
    created += await putMissing(group, sequences);
  }
  return created;
}

async function putMissing(group: readonly NewDelivery[], sequences: Map<string, number>): Promise<number> {
  let remaining = group;
  for (let round = 1; remaining.length > 0; round += 1) {
    const { items, advances } = buildNumberedTransaction(remaining, sequences);
    try {
      await sendTransaction(items);
      for (const { webhookEndpointId, to } of advances) sequences.set(webhookEndpointId, to);
      return remaining.length;
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed) || round >= maxRounds) throw error;
      const existing = new Set<number>();
      for (const { index, existing: item } of error.failures) {
        const delivery = deliveryOfAction(index, remaining.length);
        const advance = advances[index - remaining.length * actionsPerDelivery];
        if (delivery !== undefined) existing.add(delivery);
        else if (advance !== undefined) sequences.set(advance.webhookEndpointId, lastSequenceOf(item));
      }
      remaining = remaining.filter((_, index) => !existing.has(index));
    }
  }
  return 0;
}

/**
 * Writes a delivery a route creates (a redelivery, a test delivery), with the next number of its
 * endpoint's sequence, guarded by the idempotency record, in one transaction with the sequence's
 * advance (after the delivery's put: action 1 of the route's items) and any `alongside` items after
 * it (a test delivery's quota use, action 2), numbered afresh when another writer took that number
 * since `lastSequence` was read (`withNextNumbers`).
 */
export async function commitNumberedDelivery(
  idempotency: IdempotencyContext,
  redelivery: WebhookDelivery,
  shards: DeliveryShardHistory,
  lastSequence: number,
  respond: (delivery: WebhookDelivery) => StoredResponse,
  alongside: TransactItems = [],
): Promise<StoredResponse> {
  const { merchantId, webhookEndpointId } = redelivery;
  return withNextNumbers(lastSequence, 1, (last) => {
    const numbered = withSequence(redelivery, last + 1);
    const advance = { merchantId, webhookEndpointId, from: last, to: last + 1 };
    return commitWithIdempotency(idempotency, respond(numbered), [
      ...buildCreateDelivery(numbered, numbered.createdAt, shards),
      buildAdvanceSequence(advance),
      ...alongside,
    ]);
  });
}

/** Which deliveries a page asks for: a status or all, how many, and below which key (a cursor's). */
export interface DeliveriesPageRequest {
  readonly webhookEndpointId: string;
  readonly status: DeliveryStatus | undefined;
  readonly limit: number;
  readonly startKey: Record<string, unknown> | undefined;
}

/**
 * The first read of a page: who owns the endpoint (undefined when the merchant has no such
 * endpoint) and up to `limit + 1` deliveries of shard 0.
 */
export interface ShardZeroRead {
  readonly owner: DeliveriesMarker | undefined;
  readonly items: Record<string, unknown>[];
}

/**
 * Reads shard 0 and learns the endpoint's owner, status and shard history on the way. A first page
 * is one strongly consistent Query from the marker down (the marker, then the newest deliveries), so
 * a just-deleted endpoint is a 404 at once, as its own read was, and no marker means no endpoint.
 * A page below a cursor cannot reach the marker, so it reads the endpoint beside the Query: deletion is checked on every page.
 */
export async function readShardZero(
  merchantId: string,
  request: DeliveriesPageRequest,
): Promise<ShardZeroRead> {
  const { webhookEndpointId } = request;
  if (request.startKey !== undefined) {
    const [stored, items] = await Promise.all([
      getEndpoint(merchantId, webhookEndpointId),
      queryShard(request, 0),
    ]);
    return { owner: stored === undefined ? undefined : ownerOf(stored), items };
  }
  const [first, ...rest] = await queryUpTo(buildMarkerAndDeliveriesQuery(request), request.limit + 2);
  const marker = first === undefined ? undefined : toDeliveriesMarker(first);
  return { owner: marker, items: marker === undefined ? [] : rest };
}

/**
 * The page: shard 0's deliveries merged with those of every other shard in force over the page's
 * range (minted up to the cursor's delivery, or ever for a first page), read together, each for
 * `limit + 1` below the cursor. All shards sort by the same time-ordered ids, so the newest
 * `limit + 1` overall are among the newest `limit + 1` of each, and the cursor (the last key) keeps
 * its form: a cursor of a single partition is a cursor of shard 0.
 */
export async function mergeShards(
  request: DeliveriesPageRequest,
  owner: DeliveriesMarker,
  shardZero: readonly Record<string, unknown>[],
): Promise<QueryPage> {
  const cursorId =
    request.startKey?.SK === undefined
      ? undefined
      : String(request.startKey.SK).slice(SortKeyPrefix.webhookDelivery.length);
  const otherShards = shardsOfPage(owner.deliveryShards, { id: cursorId }).slice(1);
  const others = await Promise.all(otherShards.map((shard) => queryShard(request, shard)));
  return newestPage([...shardZero, ...others.flat()], {
    limit: request.limit,
    sortAttribute: 'SK',
    keyAttributes: ['PK', 'SK'],
  });
}

function ownerOf(stored: Awaited<ReturnType<typeof getEndpoint>> & object): DeliveriesMarker {
  return {
    merchantId: stored.endpoint.merchantId,
    webhookEndpointId: stored.endpoint.webhookEndpointId,
    deleted: !isLive(stored.endpoint),
    deliveryShards: stored.deliveryShards,
  };
}

/**
 * Shard 0 from its marker down, newest first: `ENDPOINT` sorts above every `DELIVERY#…`, so the
 * marker comes first when it exists.
 */
export function buildMarkerAndDeliveriesQuery(request: DeliveriesPageRequest): QueryCommandInput {
  return {
    TableName: tableName(),
    KeyConditionExpression: 'PK = :partition AND SK BETWEEN :deliveries AND :marker',
    ExpressionAttributeValues: {
      ':partition': deliveriesPartition(request.webhookEndpointId, 0),
      ':deliveries': SortKeyPrefix.webhookDelivery,
      ':marker': endpointKeys.webhookDeliveriesMarkerSortKey,
    },
    ScanIndexForward: false,
    ConsistentRead: true,
  };
}

/** One shard's deliveries below the cursor, newest first. */
export function buildShardQuery(request: DeliveriesPageRequest, shard: number): QueryCommandInput {
  const partition = deliveriesPartition(request.webhookEndpointId, shard);
  return {
    TableName: tableName(),
    KeyConditionExpression: deliveriesRange.keyCondition,
    ExpressionAttributeValues: {
      ':partition': partition,
      ...deliveriesRange.values,
    },
    ScanIndexForward: false,
    // A cursor names the last delivery of a page, in whichever shard: each shard starts below its SK.
    ...(request.startKey === undefined
      ? {}
      : { ExclusiveStartKey: { PK: partition, SK: request.startKey.SK } }),
  };
}

/** One shard's entries of the status (GSI6) below the cursor, newest first. */
export function buildStatusEntriesQuery(
  request: DeliveriesPageRequest & { status: DeliveryStatus },
  shard: number,
): QueryCommandInput {
  const partition = deliveryKeys.deliveriesOfStatusPartition(
    request.webhookEndpointId,
    request.status,
    shard,
  );
  const cursorSortKey = request.startKey?.SK;
  return {
    TableName: tableName(),
    IndexName: 'GSI6',
    KeyConditionExpression: 'GSI6PK = :partition',
    ExpressionAttributeValues: { ':partition': partition },
    ScanIndexForward: false,
    ...(cursorSortKey === undefined
      ? {}
      : {
          ExclusiveStartKey: {
            PK: request.startKey?.PK,
            SK: cursorSortKey,
            GSI6PK: partition,
          },
        }),
  };
}

/**
 * A page of an endpoint's deliveries of one status, and who owns the endpoint: shard 0's entries of
 * the status (GSI6), then their deliveries and the endpoint's marker in one strongly consistent
 * `BatchGetItem`, so a just-deleted endpoint is a 404 at once, on every page. An endpoint whose
 * raises added shards reads their entries once the marker names them, and the page's deliveries
 * from them by key. A delivery whose status moved on since its entry was read is left out.
 */
export async function deliveriesOfStatusPage(
  request: DeliveriesPageRequest & { status: DeliveryStatus },
): Promise<{ owner: DeliveriesMarker | undefined; page: QueryPage }> {
  const entriesOf = (shard: number) => queryUpTo(buildStatusEntriesQuery(request, shard), request.limit + 1);
  const shardZero = await entriesOf(0);
  const marker = endpointKeys.webhookDeliveriesMarker(request.webhookEndpointId);
  // Deliveries and the marker of one endpoint differ by their sort keys: `DELIVERY#<id>`, `ENDPOINT`.
  const read = new Map(
    (await batchGet([marker, ...shardZero.map(tableKeyOf)])).map((item) => [String(item.SK), item]),
  );
  const markerItem = read.get(marker.SK);
  const owner = markerItem === undefined ? undefined : toDeliveriesMarker(markerItem);
  if (owner === undefined) return { owner, page: { items: [], lastKey: undefined } };
  const cursorId =
    request.startKey?.SK === undefined
      ? undefined
      : String(request.startKey.SK).slice(SortKeyPrefix.webhookDelivery.length);
  const otherShards = shardsOfPage(owner.deliveryShards, { id: cursorId }).slice(1);
  const others = (await Promise.all(otherShards.map(entriesOf))).flat();
  const entries = newestPage([...shardZero, ...others], {
    limit: request.limit,
    sortAttribute: 'SK',
    keyAttributes: ['PK', 'SK'],
  });
  const unread = entries.items.filter((entry) => !read.has(String(entry.SK)));
  for (const item of await batchGet(unread.map(tableKeyOf))) read.set(String(item.SK), item);
  const items = entries.items.flatMap((entry) => {
    const item = read.get(String(entry.SK));
    return item !== undefined && item.status === request.status ? [item] : [];
  });
  return { owner, page: { items, lastKey: entries.lastKey } };
}

function queryShard(request: DeliveriesPageRequest, shard: number) {
  return queryUpTo(buildShardQuery(request, shard), request.limit + 1);
}

/**
 * The newest-first Query of an event's partition of the event-deliveries index (GSI5, keyed by
 * `eventId` and `createdAt`): its deliveries and the event's own entry, which is at least as old
 * as any of them. An index is read eventually consistent: a delivery written a moment ago may show
 * a moment later.
 */
export function buildEventDeliveriesQuery(
  eventId: string,
  startKey: Record<string, unknown> | undefined,
): QueryCommandInput {
  return {
    TableName: tableName(),
    IndexName: 'GSI5',
    KeyConditionExpression: 'eventId = :eventId',
    // A test delivery's `evt_` id is in no event log: its partition lists nothing, so it is a 404.
    FilterExpression: 'attribute_not_exists(test)',
    ExpressionAttributeValues: { ':eventId': eventId },
    ScanIndexForward: false,
    ExclusiveStartKey: startKey,
  };
}

/** The keys a page of GSI5 resumes from: the index's and the table's. */
const eventDeliveriesKeyAttributes = ['eventId', 'createdAt', 'PK', 'SK'] as const;

/** One page of an event's deliveries, and the event's entry when the Query reached it. */
export interface EventDeliveriesPage {
  /** The event's index entry (merchant, expiry), whoever's and however old, when read. */
  readonly event: Record<string, unknown> | undefined;
  /** The page's deliveries as the index projects them, newest first; their last key is the cursor. */
  readonly deliveries: QueryPage;
}

/**
 * One page of an event's deliveries (to every endpoint, and redeliveries), newest first, in one
 * Query of the event-deliveries index. The event's entry sorts last (it is the oldest), so it comes
 * with the page that reaches the end, and with any first page of an event without deliveries. The
 * caller checks merchant and expiry on the deliveries, which carry both, and on the event.
 */
export async function queryEventDeliveries(
  eventId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
): Promise<EventDeliveriesPage> {
  // `limit + 1` deliveries make `hasMore` exact; the event's entry may be among what is read.
  const found = await queryUpTo(buildEventDeliveriesQuery(eventId, startKey), limit + 2);
  const event = found.find((item) => item.entityType === EntityType.event);
  const deliveries = pageOf(
    found.filter((item) => item !== event),
    { limit, keyAttributes: eventDeliveriesKeyAttributes },
  );
  return { event, deliveries };
}

export interface EndpointWithDelivery {
  readonly endpoint: StoredWebhookEndpoint | undefined;
  readonly delivery: WebhookDelivery | undefined;
  /** The last number of the endpoint's delivery sequence (0 before its first delivery). */
  readonly lastSequence: number;
}

type ItemKey = { readonly PK: string; readonly SK: string };

/**
 * An endpoint of the merchant and the items of `others` (undefined where none exists), in order,
 * in one strongly consistent BatchGetItem: what a route or a recovery batch reads beside the
 * endpoint it acts on.
 */
export async function getEndpointWith(
  merchantId: string,
  webhookEndpointId: string,
  others: readonly ItemKey[],
): Promise<{ endpoint: StoredWebhookEndpoint | undefined; others: (Record<string, unknown> | undefined)[] }> {
  const endpointKey = endpointKeys.webhookEndpoint(merchantId, webhookEndpointId);
  const items = await batchGet([endpointKey, ...others]);
  const itemOf = (key: ItemKey) => items.find((item) => item.PK === key.PK && item.SK === key.SK);
  const endpointItem = itemOf(endpointKey);
  return {
    endpoint: endpointItem === undefined ? undefined : toStoredEndpoint(endpointItem),
    others: others.map(itemOf),
  };
}

/**
 * An endpoint of the merchant, one delivery under it and the endpoint's delivery sequence (which
 * a redelivery advances), in one strongly consistent BatchGetItem.
 * The delivery's key holds no merchant: it belongs to the caller only when the endpoint does. The
 * delivery is looked for in shard 0, where every delivery of an endpoint with one shard is; only
 * when the endpoint's history places it in another shard is it read there, a second round trip.
 */
export async function getEndpointWithDelivery(
  merchantId: string,
  webhookEndpointId: string,
  webhookDeliveryId: string,
): Promise<EndpointWithDelivery> {
  const {
    endpoint,
    others: [deliveryItem, sequenceItem],
  } = await getEndpointWith(merchantId, webhookEndpointId, [
    deliveryKeys.webhookDelivery(webhookEndpointId, webhookDeliveryId, 0),
    endpointKeys.webhookDeliverySequence(merchantId, webhookEndpointId),
  ]);
  const lastSequence = lastSequenceOf(sequenceItem);
  if (endpoint !== undefined && deliveryShardOf(webhookDeliveryId, endpoint.deliveryShards) !== 0) {
    return {
      endpoint,
      delivery: await getDelivery(webhookEndpointId, webhookDeliveryId, endpoint.deliveryShards),
      lastSequence,
    };
  }
  return {
    endpoint,
    delivery: deliveryItem === undefined ? undefined : toDelivery(deliveryItem),
    lastSequence,
  };
}

/** An endpoint of the merchant and its delivery sequence's last number. */
export interface EndpointWithSequence {
  readonly endpoint: StoredWebhookEndpoint | undefined;
  /** The last number of the endpoint's delivery sequence (0 before its first delivery). */
  readonly lastSequence: number;
}

/**
 * An endpoint of the merchant and its delivery sequence, which a test delivery advances, in one
 * strongly consistent BatchGetItem.
 */
export async function getEndpointWithSequence(
  merchantId: string,
  webhookEndpointId: string,
): Promise<EndpointWithSequence> {
  const {
    endpoint,
    others: [sequenceItem],
  } = await getEndpointWith(merchantId, webhookEndpointId, [
    endpointKeys.webhookDeliverySequence(merchantId, webhookEndpointId),
  ]);
  return { endpoint, lastSequence: lastSequenceOf(sequenceItem) };
}

/** A delivery as read with the lease a dispatcher may hold on its next attempt. */
export interface LeasedDelivery extends WebhookDelivery {
  readonly leaseUntil?: string | undefined;
}

/**
 * The newest `perShard` deliveries of each of the endpoint's shards, strongly consistent, with their
 * leases: what its latest attempts show before the dispatcher has recorded them on the endpoint.
 */
export async function newestDeliveriesWithLeases(
  webhookEndpointId: string,
  shards: DeliveryShardHistory,
  perShard: number,
): Promise<LeasedDelivery[]> {
  const newest = { webhookEndpointId, status: undefined, limit: perShard, startKey: undefined };
  const partitions = Array.from({ length: shardsEver(shards) }, (_, shard) =>
    queryUpTo({ ...buildShardQuery(newest, shard), ConsistentRead: true }, perShard),
  );
  return (await Promise.all(partitions)).flat().map((item) => ({ ...toDelivery(item), ...leaseOf(item) }));
}
