import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { TypeID } from 'typeid-js';
import { describe, expect, it } from 'vitest';
import {
  type DeliveryShardHistory,
  deliveryShardOf,
  raiseDeliveryShards,
} from '../../../functions/domain/delivery-shards';
import { typeIdMilliseconds } from '../../../functions/domain/id-time-bounds';
import {
  maxShardCount,
  shardCountAt,
  shardLeadMs,
  shardsEver,
} from '../../../functions/domain/shard-history';
import { integerNearBounds } from '../../support/integer-near-bounds';
import { assertProperty } from '../../support/property';

/** UUIDv7 keeps 48 bits of milliseconds. */
const lastMillisecond = 2 ** 48 - 1;

/** The delivery id a UUIDv7 minted at `milliseconds` with these other bits would have. */
function deliveryIdAt(milliseconds: number, bits: Uint8Array): string {
  const bytes = Uint8Array.from(bits);
  for (let index = 0; index < 6; index += 1)
    bytes[index] = Math.floor(milliseconds / 2 ** (8 * (5 - index))) % 256;
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return TypeID.fromUUIDBytes('whkdel', bytes).toString();
}

/** The rule written out on its own: SHA-256 of the id as one big number, modulo the count. */
function expectedShard(id: string, count: number): number {
  return Number(BigInt(`0x${createHash('sha256').update(id).digest('hex')}`) % BigInt(count));
}

const otherBits = fc.uint8Array({ minLength: 16, maxLength: 16 });
const iso = (milliseconds: number) => new Date(milliseconds).toISOString();
/** Times a Date prints as ISO 8601 and a UUIDv7 holds, 3 ms either side included. */
const since = integerNearBounds({ min: 3, max: 8_000_000_000_000 });
const count = integerNearBounds({ min: 2, max: maxShardCount });

describe('typeIdMilliseconds', () => {
  it('reads back the millisecond an id was minted at, over the whole 48-bit range', () => {
    assertProperty(
      fc.property(integerNearBounds({ min: 0, max: lastMillisecond }), otherBits, (minted, bits) => {
        expect(typeIdMilliseconds(deliveryIdAt(minted, bits))).toBe(minted);
      }),
    );
  });
});

describe('deliveryShardOf', () => {
  it('places every delivery in shard 0 when the history is empty', () => {
    assertProperty(
      fc.property(integerNearBounds({ min: 0, max: lastMillisecond }), otherBits, (minted, bits) => {
        expect(deliveryShardOf(deliveryIdAt(minted, bits), [])).toBe(0);
      }),
    );
  });

  it('uses the new count from the millisecond of `since` on, and the old one up to the millisecond before', () => {
    assertProperty(
      fc.property(since, count, fc.integer({ min: -3, max: 3 }), otherBits, (at, shards, offset, bits) => {
        const history = [{ since: iso(at), count: shards }];
        const id = deliveryIdAt(at + offset, bits);
        expect(deliveryShardOf(id, history)).toBe(offset >= 0 ? expectedShard(id, shards) : 0);
      }),
      {
        examples: [
          [3, 2, 0, new Uint8Array(16)],
          [3, 16, -1, new Uint8Array(16).fill(0xff)],
        ],
      },
    );
  });

  it('keeps the count of its own time under a history of several raises', () => {
    assertProperty(
      fc.property(
        fc.uniqueArray(since, { minLength: 1, maxLength: 5 }),
        fc.uniqueArray(count, { minLength: 5, maxLength: 5 }),
        fc.integer({ min: -2, max: 2 }),
        fc.nat(4),
        otherBits,
        (times, counts, offset, pick, bits) => {
          const sortedTimes = [...times].sort((a, b) => a - b);
          const sortedCounts = [...counts].sort((a, b) => a - b);
          const history = sortedTimes.map((time, index) => ({
            since: iso(time),
            count: sortedCounts[index] ?? 2,
          }));
          const minted = (sortedTimes[pick % sortedTimes.length] ?? 1) + offset;
          const id = deliveryIdAt(minted, bits);
          const inForce = history.filter((change) => Date.parse(change.since) <= minted).at(-1)?.count ?? 1;
          expect(shardCountAt(history, minted)).toBe(inForce);
          expect(deliveryShardOf(id, history)).toBe(inForce === 1 ? 0 : expectedShard(id, inForce));
        },
      ),
    );
  });

  it('spreads time-ordered ids over every shard, each within 25 % of its share', () => {
    const history = [{ since: iso(0), count: 4 }];
    const counts = [0, 0, 0, 0];
    for (let index = 0; index < 4096; index += 1) {
      const bits = new Uint8Array(16);
      bits[15] = index % 256;
      bits[14] = Math.floor(index / 256);
      const shard = deliveryShardOf(deliveryIdAt(1_800_000_000_000 + Math.floor(index / 8), bits), history);
      counts[shard] = (counts[shard] ?? 0) + 1;
    }
    for (const each of counts) expect(Math.abs(each - 1024)).toBeLessThan(256);
  });
});

describe('raiseDeliveryShards', () => {
  const now = new Date('2026-11-22T12:00:00.000Z');
  const inTenMinutes = '2026-11-22T12:10:00.000Z';

  it('appends the new count from the lead time on, keeping every earlier change', () => {
    expect(shardLeadMs).toBe(600_000);
    const first = raiseDeliveryShards([], 4, now);
    expect(first).toEqual([{ since: inTenMinutes, count: 4 }]);
    const later = new Date('2026-11-23T00:00:00.000Z');
    expect(raiseDeliveryShards(first, 8, later)).toEqual([
      { since: inTenMinutes, count: 4 },
      { since: '2026-11-23T00:10:00.000Z', count: 8 },
    ]);
  });

  it('orders a raise after a change still waiting to take effect', () => {
    const waiting: DeliveryShardHistory = [{ since: '2026-11-22T12:30:00.000Z', count: 2 }];
    expect(raiseDeliveryShards(waiting, 3, now)).toEqual([
      ...waiting,
      { since: '2026-11-22T12:30:00.001Z', count: 3 },
    ]);
  });

  it('changes nothing for the same count, and refuses a lower one or one out of 1–16', () => {
    const history = [{ since: inTenMinutes, count: 4 }];
    expect(raiseDeliveryShards(history, 4, now)).toBe(history);
    expect(raiseDeliveryShards([], 1, now)).toEqual([]);
    expect(() => raiseDeliveryShards(history, 3, now)).toThrow('the shard count can only be raised: it is 4');
    for (const wrong of [0, 17, 2.5, Number.NaN]) {
      expect(() => raiseDeliveryShards([], wrong, now)).toThrow('a whole number from 1 to 16');
    }
  });

  it('never lowers the count in force at any time, so no written delivery changes shard', () => {
    assertProperty(
      fc.property(fc.array(count, { maxLength: 6 }), fc.nat(1_000_000), (raises, step) => {
        let history: DeliveryShardHistory = [];
        let at = now.getTime();
        for (const next of raises) {
          const before = history;
          if (next < shardsEver(history)) continue;
          history = raiseDeliveryShards(history, next, new Date(at));
          expect(history.slice(0, before.length)).toEqual(before);
          for (const change of before) {
            expect(shardCountAt(history, Date.parse(change.since))).toBe(
              shardCountAt(before, Date.parse(change.since)),
            );
          }
          expect(shardCountAt(history, at + shardLeadMs - 1)).toBe(
            shardCountAt(before, at + shardLeadMs - 1),
          );
          at += step;
        }
      }),
    );
  });
});
