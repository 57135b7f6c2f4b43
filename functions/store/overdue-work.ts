import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { isExpired } from '../domain/retention';
import type { StoredRecovery } from '../domain/webhook-recovery';
import { documentClient, tableName } from './client';
import { EntityType, keys } from './keys';
import { mapWithConcurrency } from './map-with-concurrency';
import {
  type PlacedDelivery,
  partitionReadConcurrency,
  placedDelivery,
  soonestDueFirst,
} from './webhook-deliveries';
import { toStoredRecovery } from './webhook-recoveries';

/** What the due index holds past its time: the reconciler's work. */
export interface OverdueWork {
  /** Waiting deliveries whose attempt was due, the longest overdue first. */
  readonly deliveries: PlacedDelivery[];
  /** Running recoveries that no batch has written since their nudge time, the longest stalled first. */
  readonly stalledRecoveries: StoredRecovery[];
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
 * each the oldest first and at most `limit` of each. One Query per partition (each shard and the
 * legacy one), each a single page of at most `limit`: the `limit` oldest overall are among the
 * `limit` oldest of each partition. A stalled recovery takes a place in its partition's page, so
 * a run may miss the last of a partition's `limit` oldest deliveries; the next run finds it.
 */
export async function overdueWork(dueBefore: string, limit: number): Promise<OverdueWork> {
  const pages = await mapWithConcurrency(
    keys.dueDeliveriesPartitions(),
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
  };
}
