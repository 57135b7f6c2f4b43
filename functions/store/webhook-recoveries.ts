import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryShardHistory } from '../domain/delivery-shards';
import { typeIdBound } from '../domain/id-time-bounds';
import { isExpired, retentionDays } from '../domain/retention';
import { shardsEver } from '../domain/shard-history';
import { DeliveryStatus, type WebhookDelivery } from '../domain/webhook-delivery';
import {
  type RecoveryCursor,
  RecoveryStatus,
  recoveryNudgeAt,
  type StoredRecovery,
  type WebhookRecovery,
} from '../domain/webhook-recovery';
import { documentClient, tableName } from './client';
import { QuotaAttribute, useHistoryOf } from './endpoint-quotas';
import { getEndpointWith } from './endpoint-with-delivery';
import { EntityType, keys, SortKeyPrefix } from './keys';
import { mapWithConcurrency } from './map-with-concurrency';
import { queryAll } from './query-page';
import { toDelivery } from './webhook-deliveries';
import type { StoredWebhookEndpoint } from './webhook-endpoints';

/** A recovery record is kept as long as the deliveries it could have recovered. */
const recoveryRetentionSeconds = retentionDays * 24 * 60 * 60;

/**
 * The stored recovery. While it runs, its record is in the due index until `nudgeAt`, its write's
 * time plus the stall time: each batch's write moves the entry on, and one still there when the
 * time is past is a recovery whose next batch never came, which the reconciler nudges.
 */
function recoveryItem({ recovery, cursor, step }: StoredRecovery) {
  const running = recovery.status === RecoveryStatus.running;
  const nudgeAt = recoveryNudgeAt(recovery.updatedAt);
  return {
    ...keys.webhookRecovery(recovery.merchantId, recovery.recoveryId),
    ...(running ? keys.recoveryNudge(nudgeAt, recovery.recoveryId) : {}),
    entityType: EntityType.webhookRecovery,
    ...recovery,
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
          ...keys.webhookRecoveryLock(merchantId, webhookEndpointId),
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
      Key: keys.webhookRecoveryLock(recovery.merchantId, recovery.webhookEndpointId),
      // A lock already gone is no reason to fail the recovery's last batch.
      ConditionExpression: 'attribute_not_exists(PK) OR recoveryId = :recoveryId',
      ExpressionAttributeValues: { ':recoveryId': recovery.recoveryId },
    },
  };
}

export function runningRecoveryIdOf(lock: Record<string, unknown> | undefined): string | undefined {
  return typeof lock?.recoveryId === 'string' ? lock.recoveryId : undefined;
}

/**
 * The endpoint, the id of its running recovery if one runs, and the times of its latest recoveries
 * (kept on its delivery sequence item): one strongly consistent BatchGetItem.
 */
export async function getEndpointWithRecoveryLock(
  merchantId: string,
  webhookEndpointId: string,
): Promise<{
  endpoint: StoredWebhookEndpoint | undefined;
  runningRecoveryId: string | undefined;
  recoveriesAt: number[];
}> {
  const {
    endpoint,
    others: [lock, sequence],
  } = await getEndpointWith(merchantId, webhookEndpointId, [
    keys.webhookRecoveryLock(merchantId, webhookEndpointId),
    keys.webhookDeliverySequence(merchantId, webhookEndpointId),
  ]);
  return {
    endpoint,
    runningRecoveryId: runningRecoveryIdOf(lock),
    recoveriesAt: useHistoryOf(sequence, QuotaAttribute.recoveries),
  };
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
  } = await getEndpointWith(merchantId, webhookEndpointId, [keys.webhookRecovery(merchantId, recoveryId)]);
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
  const partition = keys.deliveriesPartition(webhookEndpointId, cursor.shard);
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
 * consistent: a delivery made a moment ago by another writer may not be seen yet. An event whose
 * deliveries predate the index has none there, and maps to nothing.
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
