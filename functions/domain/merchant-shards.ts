import { randomInt } from 'node:crypto';
import { raiseShards, type ShardHistory, shardCountAt } from './shard-history';
import { typeIdBytes, typeIdOfBytes } from './typeid-bits';

/**
 * A merchant's write shards: its payments (with their refunds), invoices (with their payment
 * records) and payouts spread over up to 16 partitions, shard 0 being the merchant's own.
 *
 * The shard is written into the id, so whoever holds a merchant and an id finds the item without
 * the history: an id of shard 0 is a UUIDv7, as every id minted before shards existed; an id of
 * shard k ≥ 1 has the same layout with version 8 (RFC 9562's layout for custom bits) and k in the
 * four bits after the version. Its first 48 bits stay its creation time, so it sorts among the
 * merchant's other ids by time and time ranges stay key ranges.
 */
const versionShift = 4;
const shardedVersion = 8;

/** The shard an id was minted for: 0 for a UUIDv7 (and anything else), k for a version-8 id. */
export function merchantShardOfId(id: string): number {
  let bytes: Uint8Array;
  try {
    bytes = typeIdBytes(id);
  } catch {
    return 0;
  }
  const versionByte = bytes[6] ?? 0;
  return versionByte >> versionShift === shardedVersion ? versionByte & 0x0f : 0;
}

/**
 * A new time-ordered id for `shard` (0 … 15), made from a freshly minted UUIDv7 TypeID (`newId`):
 * that id itself for shard 0, else the same bits with version 8 and the shard. (It takes the id
 * rather than minting it, so a route that only reads ids carries no id generator.)
 */
export function inShard(id: string, shard: number): string {
  if (shard === 0) return id;
  if (!Number.isInteger(shard) || shard < 0 || shard > 15) throw new RangeError(`no shard ${shard}`);
  const bytes = typeIdBytes(id);
  bytes[6] = (shardedVersion << versionShift) | shard;
  return typeIdOfBytes(id.slice(0, id.lastIndexOf('_')), bytes);
}

/**
 * The shard a new item goes to: one of those in force now, at random, so writes spread evenly over
 * them. Shard 0 for every merchant that never raised its count.
 */
export function shardForNewItem(history: ShardHistory, now: Date): number {
  const count = shardCountAt(history, now.getTime());
  return count === 1 ? 0 : randomInt(count);
}

/**
 * The merchant's history after raising its count to `count`, from `now` plus the lead time (see
 * `raiseShards`).
 */
export function raiseMerchantShards(history: ShardHistory, count: number, now: Date): ShardHistory {
  return raiseShards(history, count, now, 'payments and invoices');
}
