/**
 * The 128 bits of a TypeID's suffix, read and written without a library: readers on every route
 * (the shard of an id, the time of a cursor) need a few bits, not a TypeID class in their bundle.
 * The suffix is 26 characters of Crockford base32, lowercase, 5 bits each, the first holding only
 * the top 3 (130 bits with 2 of padding, hence a first character of 0–7).
 */
const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
const suffixPattern = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

/** The suffix's 16 bytes, big-endian; throws on anything that is not a TypeID suffix. */
export function typeIdBytes(id: string): Uint8Array {
  const suffix = id.slice(id.lastIndexOf('_') + 1);
  if (!suffixPattern.test(suffix)) throw new RangeError('not a TypeID');
  let value = 0n;
  for (const character of suffix) value = (value << 5n) | BigInt(alphabet.indexOf(character));
  const bytes = new Uint8Array(16);
  for (let index = 15; index >= 0; index -= 1) {
    bytes[index] = Number(value & 0xffn);
    value >>= 8n;
  }
  return bytes;
}

/** The TypeID of `prefix` with these 16 bytes as its suffix. */
export function typeIdOfBytes(prefix: string, bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let suffix = '';
  for (let index = 0; index < 26; index += 1) {
    suffix = alphabet.charAt(Number(value & 31n)) + suffix;
    value >>= 5n;
  }
  return `${prefix}_${suffix}`;
}
