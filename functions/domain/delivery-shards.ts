import { createHash } from 'node:crypto';
import { typeIdMilliseconds } from './id-time-bounds';
import { raiseShards, type ShardHistory, shardCountAt } from './shard-history';

/**
 * An endpoint's delivery shard history, oldest first. Empty (the attribute absent) means one shard
 * forever: every endpoint keeps its single partition until an operator raises its count.
 */
export type DeliveryShardHistory = ShardHistory;

/**
 * The partition shard of a delivery: SHA-256 of its id modulo the count in force when the id was
 * minted. Writers and readers compute it alike; shard 0 is the endpoint's
 * original partition, where every delivery minted before the first change stays. (Delivery ids are
 * derived from their event and endpoint, so the shard cannot be written into them.)
 */
export function deliveryShardOf(webhookDeliveryId: string, history: DeliveryShardHistory): number {
  const count = shardCountAt(history, typeIdMilliseconds(webhookDeliveryId));
  if (count === 1) return 0;
  const digest = createHash('sha256').update(webhookDeliveryId).digest('hex');
  return Number(BigInt(`0x${digest}`) % BigInt(count));
}

/**
 * The history after raising the endpoint's count to `count`, in force from `now` plus the lead
 * time (see `raiseShards`).
 */
export function raiseDeliveryShards(
  history: DeliveryShardHistory,
  count: number,
  now: Date,
): DeliveryShardHistory {
  return raiseShards(history, count, now, 'deliveries');
}
