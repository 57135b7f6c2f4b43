import fc from 'fast-check';
import type { IdPrefix, IdSources } from '../../functions/domain/ids';

/** The last millisecond a UUIDv7's 48 time bits hold (in the year 10889). */
export const lastIdMillisecond = 2 ** 48 - 1;

/**
 * A run of an id minter, all of it drawn by fast-check so a seed replays it: where the clock
 * starts, how it moves on each reading, the random blocks handed out in turn, and the ids to mint.
 */
export interface MintingScript {
  readonly start: number;
  /** Added to the clock before each reading after the first: 0 stays in the millisecond, < 0 steps back. */
  readonly steps: readonly number[];
  readonly blocks: readonly Uint8Array[];
  readonly mints: readonly { readonly prefix: IdPrefix; readonly shard: number }[];
}

const maxSteps = 40;
/** Clock readings after the steps run out, past which a minter is taken to wait forever. */
const maxReadings = 10_000;

/**
 * 16 random bytes: all clear, all set (the counter starts at 0xfff, one id from running out), or
 * anything.
 */
const block = fc.oneof(
  fc.constant(new Uint8Array(16)),
  fc.constant(new Uint8Array(16).fill(0xff)),
  fc.uint8Array({ minLength: 16, maxLength: 16 }),
);

/**
 * Mostly a clock that stands still (many ids in one millisecond), sometimes one that moves a
 * millisecond or more, sometimes one that steps back (a clock corrected by NTP).
 */
const step = fc.oneof(
  { weight: 6, arbitrary: fc.constant(0) },
  { weight: 2, arbitrary: fc.constant(1) },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: 1_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: -1_000, max: -1 }) },
);

/**
 * Scripts of up to 30 ids of `prefixes` in shards 0–`maxShard`, with clocks from 1970 up to close
 * to the last millisecond (the margin leaves room for the steps).
 */
export function mintingScript(prefixes: readonly IdPrefix[], maxShard = 0): fc.Arbitrary<MintingScript> {
  const margin = maxSteps * 1_000 + 2 * maxReadings;
  return fc.record({
    start: fc.oneof(
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: lastIdMillisecond - margin - 3, max: lastIdMillisecond - margin }),
      fc.integer({ min: 0, max: lastIdMillisecond - margin }),
    ),
    steps: fc.array(step, { maxLength: maxSteps }),
    blocks: fc.array(block, { minLength: 1, maxLength: 8 }),
    mints: fc.array(
      fc.record({ prefix: fc.constantFrom(...prefixes), shard: fc.integer({ min: 0, max: maxShard }) }),
      { minLength: 1, maxLength: 30 },
    ),
  });
}

/** The sources a script gives a minter, and what the minter took from them so far. */
export interface ScriptedSources extends IdSources {
  /** Every clock reading, in order. */
  readonly readings: readonly number[];
  /** Every block handed out, in order. */
  readonly handedOut: readonly Uint8Array[];
}

/**
 * The script's clock and random bytes. The clock never goes below 0 and, once the steps run out,
 * moves 1 ms a reading, so a minter that waits for the next millisecond gets it; a minter still
 * reading it 10,000 readings later fails rather than hangs.
 */
export function scriptedSources(script: MintingScript): ScriptedSources {
  const readings: number[] = [];
  const handedOut: Uint8Array[] = [];
  let time = script.start;
  return {
    readings,
    handedOut,
    now: () => {
      if (readings.length > 0) time = Math.max(0, time + (script.steps[readings.length - 1] ?? 1));
      if (readings.length > script.steps.length + maxReadings) {
        throw new Error(`the minter read the clock ${readings.length} times and still waits`);
      }
      readings.push(time);
      return time;
    },
    randomBytes: (size) => {
      if (size !== 16) throw new RangeError(`scripted blocks are 16 bytes, not ${size}`);
      const given = Uint8Array.from(script.blocks[handedOut.length % script.blocks.length] ?? []);
      handedOut.push(given);
      return Uint8Array.from(given);
    },
  };
}
