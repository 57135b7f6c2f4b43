/**
 * One raise of a shard count: items whose id was minted at or after `since` (ISO 8601) spread over
 * `count` partitions, until the next change.
 */
export interface ShardChange {
  readonly since: string;
  readonly count: number;
}

/**
 * A shard history, oldest first. Empty (the attribute absent) means one shard forever: every
 * merchant and endpoint keeps its single partition until an operator raises its count.
 */
export type ShardHistory = readonly ShardChange[];

/** The most partitions one merchant's or one endpoint's items spread over: 16 × ~1,000 WRU/s. */
export const maxShardCount = 16;

/**
 * How far ahead of the raise a new count takes effect. Writers place items with the history they
 * read moments before, or with one an authorizer answer cached for a minute; ten minutes is far
 * longer than any of those gaps or any clock skew, so every reader already knows a shard before
 * the first item is written to it.
 */
export const shardLeadMs = 10 * 60 * 1000;

/**
 * The count in force at `milliseconds`: that of the last change at or before it, else 1. Counts only
 * rise, so it is also how many shards (0 … n−1) hold items minted up to then.
 */
export function shardCountAt(history: ShardHistory, milliseconds: number): number {
  let count = 1;
  for (const change of history) {
    if (Date.parse(change.since) <= milliseconds) count = change.count;
  }
  return count;
}

/** Every shard that may hold an item, whenever minted, including a raise still waiting. */
export function shardsEver(history: ShardHistory): number {
  return shardCountAt(history, Number.POSITIVE_INFINITY);
}

/** Why a raise is refused; the admin CLI prints the message as its one line. */
export class ShardRaiseError extends Error {
  override name = 'ShardRaiseError';
}

/**
 * The history after raising the count to `count`, in force from `now` plus the lead time (and after
 * any change still waiting). Counts only rise and earlier changes are never rewritten, so every
 * item keeps the shard it was written to. The same count again changes nothing.
 */
export function raiseShards(history: ShardHistory, count: number, now: Date, written: string): ShardHistory {
  if (!Number.isInteger(count) || count < 1 || count > maxShardCount) {
    throw new ShardRaiseError(
      `the shard count must be a whole number from 1 to ${maxShardCount}, not ${count}`,
    );
  }
  const current = shardsEver(history);
  if (count === current) return history;
  if (count < current) {
    throw new ShardRaiseError(
      `the shard count can only be raised: it is ${current}, so ${count} would move written ${written}`,
    );
  }
  const last = history.at(-1);
  const earliest = now.getTime() + shardLeadMs;
  const since = last === undefined ? earliest : Math.max(earliest, Date.parse(last.since) + 1);
  return [...history, { since: new Date(since).toISOString(), count }];
}

/**
 * A history as stored or carried in an authorizer answer: a list of `{since, count}` with valid
 * times and counts, else none (one shard). Anything else is treated as absent, never trusted.
 */
export function toShardHistory(value: unknown): ShardHistory {
  if (!Array.isArray(value)) return [];
  const history: ShardChange[] = [];
  for (const change of value) {
    if (typeof change !== 'object' || change === null) return [];
    const { since, count } = change as Record<string, unknown>;
    if (typeof since !== 'string' || Number.isNaN(Date.parse(since))) return [];
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > maxShardCount)
      return [];
    history.push({ since, count });
  }
  return history;
}
