import { randomInt } from 'node:crypto';
import { raiseShards, type ShardHistory, shardCountAt } from './shard-history';
import { typeIdBytes, typeIdOfBytes } from './typeid-bits';

/**
 * A merchant's write shards (up to 16 partitions for its payments, invoices and payouts), each id
 * naming its own (docs/decisions/write-shards-of-a-merchant.md).
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
