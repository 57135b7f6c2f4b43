import fc from 'fast-check';
import { TypeID } from 'typeid-js';
import { describe, expect, it } from 'vitest';
import { typeIdMilliseconds } from '../../../functions/domain/id-time-bounds';
import { idMinter, newId } from '../../../functions/domain/ids';
import { typeIdBytes, typeIdOfBytes } from '../../../functions/domain/typeid-bits';
import { assertProperty } from '../../support/property';
import { type MintingScript, mintingScript, scriptedSources } from '../../support/scripted-id-sources';

const anyBytes = fc.oneof(
  fc.constant(new Uint8Array(16)),
  fc.constant(new Uint8Array(16).fill(0xff)),
  fc.uint8Array({ minLength: 16, maxLength: 16 }),
);

describe('TypeID bits', () => {
  it('writes and reads the suffix exactly as the TypeID library does', () => {
    assertProperty(
      fc.property(anyBytes, (bytes) => {
        const id = typeIdOfBytes('pmt', bytes);
        expect(id).toBe(TypeID.fromUUIDBytes('pmt', bytes).toString());
        expect(typeIdBytes(id)).toEqual(bytes);
      }),
    );
  });

  it('refuses what is not a TypeID suffix', () => {
    for (const id of ['pmt_', 'pmt_8zzzzzzzzzzzzzzzzzzzzzzzzz', 'pmt_0000000000000000000000000u', 'x']) {
      expect(() => typeIdBytes(id)).toThrow(RangeError);
    }
  });
});

/** The 12-bit counter of a UUIDv7's bytes 6 and 7, or the random start a block of bytes gives it. */
const counterOf = (bytes: Uint8Array) => (((bytes[6] ?? 0) & 0x0f) << 8) | (bytes[7] ?? 0);

interface Minted {
  readonly time: number;
  readonly counter: number;
}

/**
 * The time and counter the minter's rule gives an id, from the one minted before it, the clock
 * readings it made and the counter's random start: a later millisecond starts the counter afresh;
 * the same one (or a clock stepped back) counts on; a counter that ran out waits for the clock to
 * pass the millisecond, reading it until it does.
 */
function expectedMint(previous: Minted | undefined, readings: readonly number[], start: number) {
  const [first = Number.NaN] = readings;
  if (previous === undefined || first > previous.time) {
    return { time: first, counter: start, readings: [first] };
  }
  if (previous.counter < 0xfff) {
    return { time: previous.time, counter: previous.counter + 1, readings: [first] };
  }
  const passed = readings.findIndex((reading) => reading > previous.time);
  const time = readings[passed] ?? Number.NaN;
  return { time, counter: start, readings: readings.slice(0, passed + 1) };
}

/** A clock standing still in one millisecond, and a counter that starts one id from running out. */
const standingClock: MintingScript = {
  start: 1795694723242,
  steps: [0, 0, 0, 0],
  blocks: [new Uint8Array(16).fill(0xff)],
  mints: [
    { prefix: 'pmt', shard: 0 },
    { prefix: 'pmt', shard: 0 },
    { prefix: 'pmt', shard: 0 },
  ],
};
/** The same, with the clock stepping back 5 ms before the counter runs out. */
const clockSteppedBack: MintingScript = { ...standingClock, steps: [-5, 0, 2, 1, 1, 1, 1] };

describe('newId', () => {
  it('mints UUIDv7 TypeIDs that sort in the order they were minted, at the current time', () => {
    const before = Date.now();
    const ids = Array.from({ length: 5000 }, () => newId('pmt'));
    const after = Date.now();
    for (const id of ids) {
      const uuid = TypeID.fromString(id, 'pmt').toUUID();
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(typeIdMilliseconds(ids[0] ?? '')).toBeGreaterThanOrEqual(before);
    expect(typeIdMilliseconds(ids.at(-1) ?? '')).toBeLessThanOrEqual(after);
  });

  it('mints each id after the one before, at a time the clock has reached', () => {
    assertProperty(
      fc.property(mintingScript(['pmt', 'inv']), (script) => {
        const sources = scriptedSources(script);
        const mint = idMinter(sources);
        let previous: (Minted & { id: string }) | undefined;
        for (const { prefix } of script.mints) {
          const firstReading = sources.readings.length;
          const id = mint(prefix);
          const readings = sources.readings.slice(firstReading);
          const block = sources.handedOut.at(-1) ?? new Uint8Array();
          const bytes = typeIdBytes(id);
          const minted = { time: typeIdMilliseconds(id), counter: counterOf(bytes) };
          const expected = expectedMint(previous, readings, counterOf(block));
          expect({ ...minted, readings }).toEqual(expected);
          // Never ahead of the clock: no later than the latest reading, whatever the clock did.
          expect(minted.time).toBeLessThanOrEqual(Math.max(...sources.readings));
          expect(bytes[6] ?? 0).toBe(0x70 | (minted.counter >> 8));
          expect(bytes[8]).toBe(((block[8] ?? 0) & 0x3f) | 0x80);
          expect([...bytes.slice(9)]).toEqual([...block.slice(9)]);
          expect(id.startsWith(`${prefix}_`)).toBe(true);
          if (previous !== undefined) expect(id.slice(prefix.length) > previous.id).toBe(true);
          previous = { ...minted, id: id.slice(prefix.length) };
        }
      }),
      { examples: [[standingClock], [clockSteppedBack]] },
    );
  });
});
