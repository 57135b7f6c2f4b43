import { TypeID } from 'typeid-js';
import type { IdPrefix } from './ids';

/** A UUIDv7 holds 48 bits of Unix milliseconds: from 1970 up to this one (in the year 10889). */
const lastMillisecond = 2 ** 48 - 1;

/**
 * The smallest or largest TypeID of `prefix` that a UUIDv7 minted at `time` can have. Ids sort by
 * their time bits, so a time range of resources is a range of ids, and one key condition reads it.
 * No id is minted before 1970 or past the last millisecond: there both bounds are the nil id (below
 * every id) or the max id (above every id), so a range still holds exactly the ids of its times.
 */
export function typeIdBound(prefix: IdPrefix, time: Date, bound: 'lowest' | 'highest'): string {
  const milliseconds = time.getTime();
  if (Number.isNaN(milliseconds)) throw new RangeError('typeIdBound needs a valid time');
  if (milliseconds < 0) return TypeID.fromUUIDBytes(prefix, new Uint8Array(16)).toString();
  if (milliseconds > lastMillisecond) {
    return TypeID.fromUUIDBytes(prefix, new Uint8Array(16).fill(0xff)).toString();
  }
  const bytes = new Uint8Array(16).fill(bound === 'lowest' ? 0x00 : 0xff);
  let remaining = BigInt(milliseconds);
  for (let index = 5; index >= 0; index -= 1) {
    bytes[index] = Number(remaining & 0xffn);
    remaining >>= 8n;
  }
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return TypeID.fromUUIDBytes(prefix, bytes).toString();
}

/** The Unix milliseconds a time-ordered TypeID (UUIDv7 layout) was minted at: its first 48 bits. */
export function typeIdMilliseconds(id: string): number {
  const bytes = TypeID.fromString(id).toUUIDBytes();
  let milliseconds = 0;
  for (let index = 0; index < 6; index += 1) milliseconds = milliseconds * 256 + (bytes[index] ?? 0);
  return milliseconds;
}
