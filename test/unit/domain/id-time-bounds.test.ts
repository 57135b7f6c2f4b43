import fc from 'fast-check';
import { TypeID, typeid } from 'typeid-js';
import { describe, expect, it } from 'vitest';
import { typeIdBound } from '../../../functions/domain/id-time-bounds';
import { integerNearBounds } from '../../support/integer-near-bounds';
import { assertProperty } from '../../support/property';

/** UUIDv7 keeps 48 bits of milliseconds. */
const lastMillisecond = 2 ** 48 - 1;
/** The range of a JavaScript Date, in milliseconds either side of 1970. */
const dateLimit = 8.64e15;

/**
 * The payment id minted at `milliseconds` with these other bits would have: a UUIDv7, or the
 * version-8 layout of a merchant's write shards (`version` 8).
 */
function paymentIdAt(milliseconds: number, bits: Uint8Array, version: 7 | 8 = 7): string {
  const bytes = Uint8Array.from(bits);
  for (let index = 0; index < 6; index += 1)
    bytes[index] = Math.floor(milliseconds / 2 ** (8 * (5 - index))) % 256;
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | (version << 4);
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return TypeID.fromUUIDBytes('pmt', bytes).toString();
}

/** The two layouts the service mints. */
const version = fc.constantFrom<7 | 8>(7, 8);

/** The id with the time bits of `milliseconds` and every other bit clear or set. */
function boundAt(milliseconds: number, fill: 0x00 | 0xff): string {
  const bytes = new Uint8Array(16).fill(fill);
  for (let index = 0; index < 6; index += 1)
    bytes[index] = Math.floor(milliseconds / 2 ** (8 * (5 - index))) % 256;
  return TypeID.fromUUIDBytes('pmt', bytes).toString();
}

/** Every millisecond a UUIDv7 can hold, its first and last more often than by chance. */
const mintedAt = integerNearBounds({ min: 0, max: lastMillisecond });
/** The bits besides the time: all clear, all set, or anything. */
const otherBits = fc.oneof(
  fc.constant(new Uint8Array(16)),
  fc.constant(new Uint8Array(16).fill(0xff)),
  fc.uint8Array({ minLength: 16, maxLength: 16 }),
);

describe('typeIdBound', () => {
  type Example = [number, Uint8Array, 7 | 8, number, number];
  it.each([
    {
      rule: 'at or above the lowest bound of a time exactly when it was minted at or after it',
      bound: 'lowest',
      inBound: (id: string, low: string) => low <= id,
      mintedInBound: (minted: number, time: number) => minted >= time,
      // Found by this property: times before 1970 and past 2^48 ms wrapped around into the id range.
      examples: [
        [0, new Uint8Array(16), 7, 0, -1],
        [0, new Uint8Array(16), 7, 0, 1970324836974592],
      ] as Example[],
    },
    {
      rule: 'at or below the highest bound of a time exactly when it was minted at or before it',
      bound: 'highest',
      inBound: (id: string, high: string) => id <= high,
      mintedInBound: (minted: number, time: number) => minted <= time,
      examples: [
        [3, new Uint8Array(16).fill(0xff), 8, 0, 281474976710658],
        [0, new Uint8Array(16), 7, 0, -1],
      ] as Example[],
    },
  ] as const)('keeps an id $rule', ({ bound, inBound, mintedInBound, examples }) => {
    assertProperty(
      fc.property(
        mintedAt,
        otherBits,
        version,
        fc.integer({ min: -3, max: 3 }),
        anyTime(),
        (minted, bits, layout, near, far) => {
          const id = paymentIdAt(minted, bits, layout);
          for (const time of [minted + near, far]) {
            const limit = typeIdBound('pmt', new Date(time), bound);
            expect(inBound(id, limit), `${bound} of ${time}`).toBe(mintedInBound(minted, time));
          }
        },
      ),
      { examples },
    );
  });

  it('is the time bits of its millisecond with every other bit clear, or every other bit set', () => {
    assertProperty(
      fc.property(mintedAt, (minted) => {
        const time = new Date(minted);
        expect(typeIdBound('pmt', time, 'lowest')).toBe(boundAt(minted, 0x00));
        expect(typeIdBound('pmt', time, 'highest')).toBe(boundAt(minted, 0xff));
      }),
    );
  });

  it('holds every id minted now between the bounds of its millisecond', () => {
    const id = typeid('pmt').toString();
    const minted = new Date(
      Number.parseInt(TypeID.fromString(id).toUUID().replaceAll('-', '').slice(0, 12), 16),
    );
    expect(typeIdBound('pmt', minted, 'lowest') <= id).toBe(true);
    expect(id <= typeIdBound('pmt', minted, 'highest')).toBe(true);
  });

  it('gives a time before 1970 bounds below every id, so a range from it starts at the first id', () => {
    const before = new Date('1969-12-31T23:59:59.999Z');
    const first = paymentIdAt(0, new Uint8Array(16));
    expect(typeIdBound('pmt', before, 'lowest') < first).toBe(true);
    expect(typeIdBound('pmt', before, 'highest') < first).toBe(true);
    expect(typeIdBound('pmt', new Date('0000-01-01T00:00:00.000Z'), 'lowest') < first).toBe(true);
  });

  it('gives a time past the last millisecond of UUIDv7 bounds above every id', () => {
    const last = paymentIdAt(lastMillisecond, new Uint8Array(16).fill(0xff));
    expect(typeIdBound('pmt', new Date(lastMillisecond + 1), 'lowest') > last).toBe(true);
    expect(typeIdBound('pmt', new Date(dateLimit), 'highest') > last).toBe(true);
  });

  it('refuses an invalid date', () => {
    expect(() => typeIdBound('pmt', new Date(Number.NaN), 'lowest')).toThrow(RangeError);
  });
});

/** Any time a Date holds: around 1970, around the last UUIDv7 millisecond, the ends, and anywhere. */
function anyTime(): fc.Arbitrary<number> {
  return fc.oneof(
    integerNearBounds({ min: -3, max: 3 }),
    integerNearBounds({ min: lastMillisecond - 3, max: lastMillisecond + 3 }),
    integerNearBounds({ min: -dateLimit, max: dateLimit }),
  );
}
