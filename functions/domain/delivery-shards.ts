import { createHash } from 'node:crypto';
import { typeIdMilliseconds } from './id-time-bounds';

/**
 * One raise of an endpoint's delivery shard count: deliveries whose id was minted at or after
 * `since` (ISO 8601) spread over `count` partitions, until the next change.
 */
export interface DeliveryShardChange {
  readonly since: string;
  readonly count: number;
}

/**
 * An endpoint's delivery shard history, oldest first. Empty (the attribute absent) means one shard
 * forever: every endpoint keeps its single partition until an operator raises its count.
 */
export type DeliveryShardHistory = readonly DeliveryShardChange[];

/** The most partitions one endpoint's deliveries spread over: 16 × ~1,000 WRU/s is far past any endpoint. */
export const maxDeliveryShardCount = 16;

/**
 * How far ahead of the raise a new count takes effect. Writers mint delivery ids with the history
 * they read moments before; ten minutes is far longer than any read-to-write gap or clock skew, so
 * no delivery is ever placed by a history that then changes under it.
 */
export const deliveryShardLeadMs = 10 * 60 * 1000;

/**
 * The count in force at `milliseconds`: that of the last change at or before it, else 1. Counts only
 * rise, so it is also how many shards (0 … n−1) hold deliveries minted up to then.
 */
export function deliveryShardCountAt(history: DeliveryShardHistory, milliseconds: number): number {
  let count = 1;
  for (const change of history) {
    if (Date.parse(change.since) <= milliseconds) count = change.count;
  }
  return count;
}

/**
 * The partition shard of a delivery: SHA-256 of its id modulo the count in force when the id was
 * minted. Writers and readers compute it alike and nothing stores it; shard 0 is the endpoint's
 * original partition, where every delivery minted before the first change stays.
 */
export function deliveryShardOf(webhookDeliveryId: string, history: DeliveryShardHistory): number {
  const count = deliveryShardCountAt(history, typeIdMilliseconds(webhookDeliveryId));
  if (count === 1) return 0;
  const digest = createHash('sha256').update(webhookDeliveryId).digest('hex');
  return Number(BigInt(`0x${digest}`) % BigInt(count));
}

/** Every shard that may hold a delivery of the endpoint, whenever minted. */
export function deliveryShardsEver(history: DeliveryShardHistory): number {
  return deliveryShardCountAt(history, Number.POSITIVE_INFINITY);
}

/** Why a raise is refused; the admin CLI prints the message as its one line. */
export class DeliveryShardRaiseError extends Error {
  override name = 'DeliveryShardRaiseError';
}

/**
 * The history after raising the count to `count`, in force from `now` plus the lead time (and after
 * any change still waiting). Counts only rise and earlier changes are never rewritten, so every
 * delivery keeps the shard it was written to. The same count again changes nothing.
 */
export function raiseDeliveryShards(
  history: DeliveryShardHistory,
  count: number,
  now: Date,
): DeliveryShardHistory {
  if (!Number.isInteger(count) || count < 1 || count > maxDeliveryShardCount) {
    throw new DeliveryShardRaiseError(
      `the shard count must be a whole number from 1 to ${maxDeliveryShardCount}, not ${count}`,
    );
  }
  const current = deliveryShardsEver(history);
  if (count === current) return history;
  if (count < current) {
    throw new DeliveryShardRaiseError(
      `the shard count can only be raised: it is ${current}, so ${count} would move written deliveries`,
    );
  }
  const last = history.at(-1);
  const earliest = now.getTime() + deliveryShardLeadMs;
  const since = last === undefined ? earliest : Math.max(earliest, Date.parse(last.since) + 1);
  return [...history, { since: new Date(since).toISOString(), count }];
}
