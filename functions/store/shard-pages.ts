import { typeIdMilliseconds } from '../domain/id-time-bounds';
import { type ShardHistory, shardCountAt } from '../domain/shard-history';

/**
 * The shards a list page reads, of a merchant or of an endpoint's deliveries: every one in force up
 * to the newest item the page can hold (its cursor's item, or the end of its time range), so pages
 * older than the first raise read shard 0 alone. One that never raised its count reads only shard
 * 0, as before shards.
 */
export function shardsOfPage(
  history: ShardHistory,
  upTo: { id?: string | undefined; time?: string | undefined },
) {
  const bounds = [
    upTo.id === undefined ? Number.POSITIVE_INFINITY : idMilliseconds(upTo.id),
    upTo.time === undefined ? Number.POSITIVE_INFINITY : Date.parse(upTo.time),
  ];
  const count = shardCountAt(history, Math.min(...bounds));
  return Array.from({ length: count }, (_, shard) => shard);
}

/** A cursor's id, signed by us; anything unreadable counts as the newest time, reading every shard. */
function idMilliseconds(id: string): number {
  try {
    return typeIdMilliseconds(id);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
