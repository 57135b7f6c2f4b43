import { fromUUIDBytes, type TypeId, toUUIDBytes } from 'typeid-js';

/**
 * The 128 bits of a TypeID's suffix, decoded and encoded by typeid-js. Only its codec is imported:
 * `fromString` and the `TypeID` class would bring uuid's v7 generator and formatter, and six error
 * classes, into every route that only checks an id or reads its shard or time
 * (docs/decisions/write-shards-of-a-merchant.md).
 */

/** The suffix's 16 bytes, big-endian; throws a RangeError on anything that is not a TypeID suffix. */
export function typeIdBytes(id: string): Uint8Array {
  const suffix = id.slice(id.lastIndexOf('_') + 1);
  let bytes: Uint8Array;
  try {
    bytes = toUUIDBytes(suffix as TypeId<''>);
  } catch (cause) {
    throw new RangeError('not a TypeID', { cause });
  }
  // The decoder drops what a first character past 7 carries beyond 128 bits: such a suffix does not
  // come back as itself.
  if (fromUUIDBytes('', bytes) !== suffix) throw new RangeError('not a TypeID');
  return bytes;
}

/** The TypeID of `prefix` with these 16 bytes as its suffix. */
export function typeIdOfBytes(prefix: string, bytes: Uint8Array): string {
  return fromUUIDBytes(prefix, bytes);
}
