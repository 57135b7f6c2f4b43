import { TypeID } from 'typeid-js';
import type { IdPrefix } from './ids';

/**
 * The smallest or largest TypeID of `prefix` that a UUIDv7 minted at `time` can have. Ids sort by
 * their time bits, so a time range of resources is a range of ids, and one key condition reads it.
 */
export function typeIdBound(prefix: IdPrefix, time: Date, bound: 'lowest' | 'highest'): string {
  const bytes = new Uint8Array(16).fill(bound === 'lowest' ? 0x00 : 0xff);
  let milliseconds = BigInt(time.getTime());
  for (let index = 5; index >= 0; index -= 1) {
    bytes[index] = Number(milliseconds & 0xffn);
    milliseconds >>= 8n;
  }
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return TypeID.fromUUIDBytes(prefix, bytes).toString();
}
