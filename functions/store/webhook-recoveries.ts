import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryShardHistory } from '../domain/delivery-shards';
import type { EndpointNotice } from '../domain/endpoint-notice';
import { typeIdBound } from '../domain/id-time-bounds';
import type { InvoiceEmail } from '../domain/invoice-email';
import { isExpired, retentionDays } from '../domain/retention';
import { shardsEver } from '../domain/shard-history';
import { DeliveryStatus, type WebhookDelivery, withSequence } from '../domain/webhook-delivery';
import {
  type RecoveryCursor,
  RecoveryStatus,
  recoveryNudgeAt,
  type StoredRecovery,
  type WebhookRecovery,
} from '../domain/webhook-recovery';
import { documentClient, tableName } from './client';
import { toEmail, toEndpointNotice } from './invoice-emails';
import { mapWithConcurrency, queryAll } from './reads';
import {
  deliveriesPartition,
  dueDeliveriesPartitions,
  dueIndexEntry,
  EntityType,
  merchantPartition,
  SortKeyPrefix,
} from './table';
import { sendTransaction, TransactionConditionFailed } from './transaction';
import {
  buildCreateDelivery,
  getEndpointWith,
  type PlacedDelivery,
  partitionReadConcurrency,
  placedDelivery,
  soonestDueFirst,
  toDelivery,
} from './webhook-deliveries';
import { buildAdvanceSequence, type StoredWebhookEndpoint, withNextNumbers } from './webhook-endpoints';

export const recoveryKeys = {
  /** A bulk recovery of an endpoint's exhausted deliveries, in its merchant's partition. */
  webhookRecovery: (merchantId: string, recoveryId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `WEBHOOK_RECOVERY#${recoveryId}`,
  }),
  /**
   * Held by an endpoint's running recovery, from its start to its last batch: at most one runs per
   * endpoint, as a start's condition that no lock exists decides.
   */
  webhookRecoveryLock: (merchantId: string, webhookEndpointId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `WEBHOOK_RECOVERY_RUNNING#${webhookEndpointId}`,
  }),
  /**
   * GSI1 of a running recovery's record, beside the waiting deliveries in the shard of its id: when
   * the reconciler nudges it unless a batch writes the record first. Readers of the index tell it
   * from a delivery by its `entityType`. Sparse: a completed or canceled recovery carries none.
   */
  recoveryNudge: dueIndexEntry,
} as const;

/** A recovery record is kept as long as the deliveries it could have recovered. */
const recoveryRetentionSeconds = retentionDays * 24 * 60 * 60;

/**
 * The stored recovery. While it runs, its record is in the due index until `nudgeAt`, its write's
 * time plus the stall time: each batch's write moves the entry on, and one still there when the
 * time is past is a recovery whose next batch never came, which the reconciler nudges.
 */
function recoveryItem({ recovery, url, cursor, step }: StoredRecovery) {
  const running = recovery.status === RecoveryStatus.running;
  const nudgeAt = recoveryNudgeAt(recovery.updatedAt);
  return {
    ...recoveryKeys.webhookRecovery(recovery.merchantId, recovery.recoveryId),
    ...(running ? recoveryKeys.recoveryNudge(nudgeAt, recovery.recoveryId) : {}),
    entityType: EntityType.webhookRecovery,
    ...recovery,
    url,
    cursor,
    step,
    ...(running ? { nudgeAt } : {}),
    ttl: Math.floor(Date.parse(recovery.createdAt) / 1000) + recoveryRetentionSeconds,
  };
}

export function toStoredRecovery(item: Record<string, unknown>): StoredRecovery {
  const cursor = (item.cursor ?? {}) as { shard?: unknown; after?: unknown };
  return {
    recovery: {
      recoveryId: String(item.recoveryId),
      webhookEndpointId: String(item.webhookEndpointId),
      merchantId: String(item.merchantId),
      since: String(item.since),
      until: String(item.until),
      status: item.status as WebhookRecovery['status'],
      exhaustedFound: Number(item.exhaustedFound),
      redelivered: Number(item.redelivered),
      skipped: Number(item.skipped),
      createdAt: String(item.createdAt),
      updatedAt: String(item.updatedAt),
      completedAt: typeof item.completedAt === 'string' ? item.completedAt : null,
    },
    url: String(item.url),
    cursor: {
      shard: Number(cursor.shard ?? 0),
      ...(typeof cursor.after === 'string' ? { after: cursor.after } : {}),
    },
    step: Number(item.step),
  };
}

/**
 * Starting a recovery: its record, and the endpoint's lock naming it, only where no lock exists —
 * the lock's failed condition hands back the running recovery's id (ALL_OLD).
 */
export function buildStartRecovery(stored: StoredRecovery) {
  const { merchantId, webhookEndpointId, recoveryId } = stored.recovery;
  return [
    {
      Put: {
        TableName: tableName(),
        Item: recoveryItem(stored),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...recoveryKeys.webhookRecoveryLock(merchantId, webhookEndpointId),
          entityType: EntityType.webhookRecoveryLock,
          merchantId,
          webhookEndpointId,
          recoveryId,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      },
    },
  ] as const;
}

/**
 * A batch's update of its recovery, only from the step it read: a retried stream record finds the
 * step moved and changes nothing.
 */
export function buildAdvanceRecovery(previousStep: number, next: StoredRecovery) {
  return {
    Put: {
      TableName: tableName(),
      Item: recoveryItem(next),
      ConditionExpression: 'step = :step',
      ExpressionAttributeValues: { ':step': previousStep },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/** The last batch frees the endpoint for its next recovery. */
export function buildReleaseRecoveryLock(recovery: WebhookRecovery) {
  return {
    Delete: {
      TableName: tableName(),
      Key: recoveryKeys.webhookRecoveryLock(recovery.merchantId, recovery.webhookEndpointId),
      // A lock already gone is no reason to fail the recovery's last batch.
      ConditionExpression: 'attribute_not_exists(PK) OR recoveryId = :recoveryId',
      ExpressionAttributeValues: { ':recoveryId': recovery.recoveryId },
    },
  };
}

export function runningRecoveryIdOf(lock: Record<string, unknown> | undefined): string | undefined {
  return typeof lock?.recoveryId === 'string' ? lock.recoveryId : undefined;
}

/** The endpoint and the id of its running recovery if one runs: one strongly consistent BatchGetItem. */
export async function getEndpointWithRecoveryLock(
  merchantId: string,
  webhookEndpointId: string,
): Promise<{ endpoint: StoredWebhookEndpoint | undefined; runningRecoveryId: string | undefined }> {
  const {
    endpoint,
    others: [lock],
  } = await getEndpointWith(merchantId, webhookEndpointId, [
    recoveryKeys.webhookRecoveryLock(merchantId, webhookEndpointId),
  ]);
  return { endpoint, runningRecoveryId: runningRecoveryIdOf(lock) };
}

/** The endpoint and one recovery of the merchant: one strongly consistent BatchGetItem. */
export async function getEndpointWithRecovery(
  merchantId: string,
  webhookEndpointId: string,
  recoveryId: string,
  now: Date,
): Promise<{ endpoint: StoredWebhookEndpoint | undefined; recovery: StoredRecovery | undefined }> {
  const {
    endpoint,
    others: [item],
  } = await getEndpointWith(merchantId, webhookEndpointId, [
    recoveryKeys.webhookRecovery(merchantId, recoveryId),
  ]);
  return {
    endpoint,
    recovery: item === undefined || isExpired(item, now) ? undefined : toStoredRecovery(item),
  };
}

/**
 * How many deliveries one batch's Query evaluates at most: it reads this many of the window's
 * deliveries (about 1 KB each) whatever their status, so a batch's read stays bounded however few
 * of them are exhausted.
 */
const deliveriesReadPerBatch = 400;

/** One Query of a shard of the endpoint's deliveries in the window: its exhausted ones, oldest first. */
export function buildExhaustedDeliveriesQuery(
  webhookEndpointId: string,
  window: { since: string; until: string },
  cursor: RecoveryCursor,
) {
  const partition = deliveriesPartition(webhookEndpointId, cursor.shard);
  const from = typeIdBound('whkdel', new Date(window.since), 'lowest');
  const to = typeIdBound('whkdel', new Date(window.until), 'highest');
  return {
    TableName: tableName(),
    KeyConditionExpression: 'PK = :partition AND SK BETWEEN :from AND :to',
    // Test deliveries carry no event to recover.
    FilterExpression: '#status = :exhausted AND attribute_not_exists(test)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':partition': partition,
      ':from': `${SortKeyPrefix.webhookDelivery}${from}`,
      ':to': `${SortKeyPrefix.webhookDelivery}${to}`,
      ':exhausted': DeliveryStatus.exhausted,
    },
    ...(cursor.after === undefined ? {} : { ExclusiveStartKey: { PK: partition, SK: cursor.after } }),
    Limit: deliveriesReadPerBatch,
    ConsistentRead: true,
  };
}

/** A batch's exhausted deliveries, and where the next batch reads from (none when the window is read). */
export interface ExhaustedBatch {
  readonly exhausted: WebhookDelivery[];
  readonly next: RecoveryCursor | undefined;
}

/**
 * At most `batchSize` exhausted deliveries of the window from the cursor on, read by one Query.
 * When the Query found more, the next batch goes on after the last one taken; else after what the
 * Query read, or from the next shard the endpoint's history ever named.
 */
export async function readExhaustedBatch(
  webhookEndpointId: string,
  shards: DeliveryShardHistory,
  window: { since: string; until: string },
  cursor: RecoveryCursor,
  batchSize: number,
  now: Date,
): Promise<ExhaustedBatch> {
  const query = buildExhaustedDeliveriesQuery(webhookEndpointId, window, cursor);
  const { Items = [], LastEvaluatedKey } = await documentClient().send(new QueryCommand(query));
  const taken = Items.slice(0, batchSize);
  const exhausted = taken.filter((item) => !isExpired(item, now)).map(toDelivery);
  const last = taken.at(-1);
  if (Items.length > batchSize && last !== undefined) {
    return { exhausted, next: { shard: cursor.shard, after: String(last.SK) } };
  }
  if (LastEvaluatedKey !== undefined) {
    return { exhausted, next: { shard: cursor.shard, after: String(LastEvaluatedKey.SK) } };
  }
  const nextShard = cursor.shard + 1;
  return { exhausted, next: nextShard < shardsEver(shards) ? { shard: nextShard } : undefined };
}

/** How many events' deliveries are read at once. */
const eventReadConcurrency = 8;

/**
 * The id of each event's newest delivery to the endpoint, from the event-deliveries index (one
 * Query an event; ids are time-ordered, so the greatest is the newest). The index is eventually
 * consistent: a delivery made a moment ago by another writer may not be seen yet.
 */
export async function newestDeliveriesOfEvents(
  webhookEndpointId: string,
  eventIds: readonly string[],
): Promise<Map<string, string>> {
  const distinct = [...new Set(eventIds)];
  const newest = await mapWithConcurrency(distinct, eventReadConcurrency, async (eventId) => {
    const deliveries = await queryAll({
      TableName: tableName(),
      IndexName: 'GSI5',
      KeyConditionExpression: 'eventId = :eventId',
      FilterExpression: 'webhookEndpointId = :endpointId',
      ExpressionAttributeValues: { ':eventId': eventId, ':endpointId': webhookEndpointId },
      ProjectionExpression: 'webhookDeliveryId',
    });
    const ids = deliveries.map((delivery) => String(delivery.webhookDeliveryId)).sort();
    const last = ids.at(-1);
    return last === undefined ? undefined : ([eventId, last] as const);
  });
  return new Map(newest.filter((entry) => entry !== undefined));
}

/** Whether a batch was written, or found its recovery already past the step it was read at. */
export type BatchOutcome = 'committed' | 'stale';

/**
 * Writes one batch of a recovery in one transaction: the recovery's next state (only from the step
 * it was read at), each new delivery, numbered from the endpoint's next sequence number on with the
 * sequence's advance, and, when the recovery ends, its lock's release. A retried batch finds the
 * step moved and writes nothing ('stale'); when another writer took the numbers since
 * `lastSequence` was read, the batch is numbered afresh and sent again (`withNextNumbers`).
 */
export async function commitRecoveryBatch(
  previous: StoredRecovery,
  next: StoredRecovery,
  redeliveries: readonly WebhookDelivery[],
  shards: DeliveryShardHistory,
  lastSequence: number,
): Promise<BatchOutcome> {
  const { merchantId, webhookEndpointId } = next.recovery;
  // After the recovery's own write and the deliveries' puts: the sequence's advance.
  const sequenceIndex = 1 + redeliveries.length;
  return withNextNumbers(lastSequence, sequenceIndex, async (last) => {
    const numbered = redeliveries.map((delivery, index) => withSequence(delivery, last + 1 + index));
    const to = last + numbered.length;
    try {
      await sendTransaction([
        buildAdvanceRecovery(previous.step, next),
        ...numbered.flatMap((delivery) => buildCreateDelivery(delivery, delivery.createdAt, shards)),
        ...(numbered.length === 0
          ? []
          : [buildAdvanceSequence({ merchantId, webhookEndpointId, from: last, to })]),
        ...(next.recovery.status === RecoveryStatus.running ? [] : [buildReleaseRecoveryLock(next.recovery)]),
      ]);
      return 'committed';
    } catch (error) {
      if (error instanceof TransactionConditionFailed && error.failureAt(0) !== undefined) return 'stale';
      throw error;
    }
  });
}

/**
 * A nudge of a stalled recovery: its record written again, unchanged but for when it was nudged and
 * its due-index entry moved one stall time on, only while it still runs at the step it was read
 * at. The write's stream record makes the router run the batch of that step again.
 */
export function buildNudgeRecovery(stalled: StoredRecovery, now: string) {
  const { merchantId, recoveryId } = stalled.recovery;
  const nudgeAt = recoveryNudgeAt(now);
  return {
    TableName: tableName(),
    Key: recoveryKeys.webhookRecovery(merchantId, recoveryId),
    UpdateExpression: 'SET nudgedAt = :now, nudgeAt = :nudgeAt, GSI1SK = :position',
    ConditionExpression: 'step = :step AND #status = :running',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':now': now,
      ':nudgeAt': nudgeAt,
      ':position': recoveryKeys.recoveryNudge(nudgeAt, recoveryId).GSI1SK,
      ':step': stalled.step,
      ':running': RecoveryStatus.running,
    },
  };
}

/**
 * Nudges a recovery read as stalled. False when its condition fails: a batch committed (or the
 * recovery ended) after the read, so it is not stalled and the record is left as that batch wrote it.
 */
export async function nudgeRecovery(stalled: StoredRecovery, now: string): Promise<boolean> {
  try {
    await documentClient().send(new UpdateCommand(buildNudgeRecovery(stalled, now)));
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** What the due index holds past its time: the reconciler's work. */
export interface OverdueWork {
  /** Waiting deliveries whose attempt was due, the longest overdue first. */
  readonly deliveries: PlacedDelivery[];
  /** Running recoveries that no batch has written since their nudge time, the longest stalled first. */
  readonly stalledRecoveries: StoredRecovery[];
  /** Emails (an invoice's, or an endpoint's failing notice) still queued well after they were made: their message was lost, the oldest first. */
  readonly emails: (InvoiceEmail | EndpointNotice)[];
}

/** One page of a due-index partition: its oldest entries due before `dueBefore`. */
function buildOverdueEntriesQuery(partition: string, dueBefore: string, limit: number) {
  return {
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :partition AND GSI1SK < :before',
    ExpressionAttributeValues: { ':partition': partition, ':before': dueBefore },
    Limit: limit,
  };
}

/**
 * The due index's entries due before `dueBefore` (the reconciler's safety net), told apart by their
 * `entityType`: deliveries whose attempt is overdue and running recoveries past their nudge time,
 * each the oldest first and at most `limit` of each. One Query per shard of the index, each a
 * single page of at most `limit`: the `limit` oldest overall are among the `limit` oldest of each
 * partition. A stalled recovery takes a place in its partition's page, so
 * a run may miss the last of a partition's `limit` oldest deliveries; the next run finds it.
 */
export async function overdueWork(dueBefore: string, limit: number): Promise<OverdueWork> {
  const pages = await mapWithConcurrency(
    dueDeliveriesPartitions(),
    partitionReadConcurrency,
    async (partition) => {
      const query = buildOverdueEntriesQuery(partition, dueBefore, limit);
      const { Items = [] } = await documentClient().send(new QueryCommand(query));
      return Items;
    },
  );
  // Expired items wait in the index until DynamoDB deletes them; none is acted on again.
  const now = new Date();
  const live = soonestDueFirst(pages).filter((item) => !isExpired(item, now));
  const ofType = (entityType: EntityType) =>
    live.filter((item) => item.entityType === entityType).slice(0, limit);
  return {
    deliveries: ofType(EntityType.webhookDelivery).map(placedDelivery),
    stalledRecoveries: ofType(EntityType.webhookRecovery).map(toStoredRecovery),
    emails: live
      .filter(
        (item) =>
          item.entityType === EntityType.invoiceEmail || item.entityType === EntityType.endpointNotice,
      )
      .slice(0, limit)
      .map((item) => (item.entityType === EntityType.invoiceEmail ? toEmail(item) : toEndpointNotice(item))),
  };
}
