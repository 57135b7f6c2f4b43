import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { typeIdMilliseconds } from '../../../functions/domain/id-time-bounds';
import { idMinter, newId } from '../../../functions/domain/ids';
import {
  inShard,
  merchantShardOfId,
  raiseMerchantShards,
  shardForNewItem,
} from '../../../functions/domain/merchant-shards';
import { ShardRaiseError, shardLeadMs } from '../../../functions/domain/shard-history';
import { typeIdBytes } from '../../../functions/domain/typeid-bits';
import { assertProperty } from '../../support/property';
import { mintingScript, scriptedSources } from '../../support/scripted-id-sources';

describe('merchant write shards', () => {
  it('names its shard in every id it mints, keeping the time and the TypeID form', () => {
    assertProperty(
      fc.property(mintingScript(['pmt', 'inv', 'po'], 15), (script) => {
        const sources = scriptedSources(script);
        const mint = idMinter(sources);
        for (const { prefix, shard } of script.mints) {
          const before = sources.readings.length;
          const minted = mint(prefix);
          const id = inShard(minted, shard);
          expect(id).toMatch(new RegExp(`^${prefix}_[0-7][0-9a-hjkmnp-tv-z]{25}$`));
          expect(merchantShardOfId(id)).toBe(shard);
          expect(typeIdMilliseconds(id)).toBe(typeIdMilliseconds(minted));
          // A time the clock had reached while the id was minted: the clock's first reading for it
          // at the earliest, its latest reading so far at the latest.
          expect(typeIdMilliseconds(id)).toBeGreaterThanOrEqual(sources.readings[before] ?? Number.NaN);
          expect(typeIdMilliseconds(id)).toBeLessThanOrEqual(Math.max(...sources.readings));
          // Shard 0 is a plain UUIDv7, as every id minted before shards existed; others are version 8.
          expect((typeIdBytes(id)[6] ?? 0) >> 4).toBe(shard === 0 ? 7 : 8);
        }
      }),
      {
        examples: [
          // Found at 50 times the runs: the second id of a millisecond whose counter started at its
          // last value was minted 1 ms ahead of the clock.
          [
            {
              start: 1795694723242,
              steps: [0, 0],
              blocks: [new Uint8Array(16).fill(0xff)],
              mints: [
                { prefix: 'inv', shard: 6 },
                { prefix: 'inv', shard: 6 },
              ],
            },
          ],
        ],
      },
    );
  });

  it('finds every UUIDv7 id, and anything that is no TypeID, in shard 0', () => {
    for (let index = 0; index < 100; index += 1) expect(merchantShardOfId(newId('pmt'))).toBe(0);
    expect(merchantShardOfId('pmt_not-an-id')).toBe(0);
  });

  it('refuses a shard outside 0–15', () => {
    for (const shard of [-1, 16, 1.5]) expect(() => inShard(newId('pmt'), shard)).toThrow(RangeError);
  });

  it('places new items only in the shards in force now, over all of them', () => {
    const now = new Date('2026-12-01T00:00:00.000Z');
    const history = raiseMerchantShards([], 4, new Date(now.getTime() - shardLeadMs));
    const seen = new Set<number>();
    for (let index = 0; index < 400; index += 1) seen.add(shardForNewItem(history, now));
    // 400 draws missing one of 4 shards: 4 · (3/4)^400, about 10^-49.
    expect([...seen].sort()).toEqual([0, 1, 2, 3]);
    const waiting = raiseMerchantShards([], 4, now);
    for (let index = 0; index < 50; index += 1) expect(shardForNewItem(waiting, now)).toBe(0);
    expect(shardForNewItem([], now)).toBe(0);
  });

  it('only raises, ten minutes ahead', () => {
    const now = new Date('2026-12-01T00:00:00.000Z');
    const history = raiseMerchantShards([], 4, now);
    expect(history).toEqual([{ since: '2026-12-01T00:10:00.000Z', count: 4 }]);
    expect(raiseMerchantShards(history, 4, now)).toBe(history);
    expect(() => raiseMerchantShards(history, 2, now)).toThrow(ShardRaiseError);
    expect(() => raiseMerchantShards(history, 17, now)).toThrow(/from 1 to 16/);
  });
});
