import type { IdPrefix } from './ids';
import { typeIdBytes, typeIdOfBytes } from './typeid-bits';

/**
 * Our ids hold 48 bits of Unix milliseconds first (UUIDv7, or the version-8 layout of a merchant's
 * write shards, `merchant-shards`): from 1970 up to this one (in the year 10889).
 */
const lastMillisecond = 2 ** 48 - 1;

/**
 * A TypeID of `prefix` at or below (`lowest`) or at or above (`highest`) every id minted at `time`:
 * its time bits, then every other bit clear or set, whatever the version. Ids sort by their time
 * bits, so a time range of resources is a range of ids, and one key condition reads it.
 * No id is minted before 1970 or past the last millisecond: there both bounds are the nil id (below
 * every id) or the max id (above every id), so a range still holds exactly the ids of its times.
 */
export function typeIdBound(prefix: IdPrefix, time: Date, bound: 'lowest' | 'highest'): string {
  const milliseconds = time.getTime();
  if (Number.isNaN(milliseconds)) throw new RangeError('typeIdBound needs a valid time');
  if (milliseconds < 0) return typeIdOfBytes(prefix, new Uint8Array(16));
  if (milliseconds > lastMillisecond) {
    return typeIdOfBytes(prefix, new Uint8Array(16).fill(0xff));
  }
  const bytes = new Uint8Array(16).fill(bound === 'lowest' ? 0x00 : 0xff);
  let remaining = BigInt(milliseconds);
  for (let index = 5; index >= 0; index -= 1) {
    bytes[index] = Number(remaining & 0xffn);
    remaining >>= 8n;
  }
  return typeIdOfBytes(prefix, bytes);
}

/** The Unix milliseconds a time-ordered TypeID was minted at: its first 48 bits. */
export function typeIdMilliseconds(id: string): number {
  const bytes = typeIdBytes(id);
  let milliseconds = 0;
  for (let index = 0; index < 6; index += 1) milliseconds = milliseconds * 256 + (bytes[index] ?? 0);
  return milliseconds;
}
