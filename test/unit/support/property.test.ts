import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty, propertySettings, readPropertySettings } from '../../support/property';

/** What a failed property threw, as text. */
function failureOf(run: () => void): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the property did not fail');
}

const failing = fc.property(fc.integer({ min: 0, max: 1000 }), (value) => {
  expect(value).toBeLessThan(500);
});

describe('assertProperty', () => {
  it('runs each property its usual number of runs times the runs factor', () => {
    let runs = 0;
    const counted = fc.property(fc.nat(), () => {
      runs += 1;
    });
    assertProperty(counted);
    expect(runs).toBe(100 * propertySettings.runsFactor);
    runs = 0;
    assertProperty(counted, { numRuns: 7 });
    expect(runs).toBe(7 * propertySettings.runsFactor);
  });

  it('prints the seed, the path, the counterexample and the command that replays it', () => {
    const message = failureOf(() => assertProperty(failing));
    const seed = /seed: (-?\d+)/.exec(message)?.[1];
    const path = /path: "([\d:]+)"/.exec(message)?.[1];
    expect(message).toMatch(/Counterexample: \[500\]/);
    expect(message).toContain(
      `Replay: FC_SEED=${seed} FC_PATH=${path}${propertySettings.runsFactor === 1 ? '' : ` FC_RUNS_FACTOR=${propertySettings.runsFactor}`} ` +
        `npx vitest run 'test/unit/support/property.test.ts' ` +
        `-t 'assertProperty prints the seed, the path, the counterexample and the command that replays it$'`,
    );
  });

  it('prints a seed and path that replay the same counterexample', () => {
    const message = failureOf(() => assertProperty(failing));
    const seed = Number(/seed: (-?\d+)/.exec(message)?.[1]);
    const path = /path: "([\d:]+)"/.exec(message)?.[1] ?? '';
    const replayed = fc.check(failing, { seed, path });
    expect(replayed.counterexample).toEqual([500]);
    expect(replayed.numRuns).toBe(1);
  });

  it('escapes the test name for -t and quotes it for the shell', () => {
    const message = failureOf(() => assertProperty(failing));
    expect(message).toMatch(
      /-t 'assertProperty escapes the test name for -t and quotes it for the shell\$'$/,
    );
  });

  it('reports an async property that fails the same way', async () => {
    const asyncFailing = fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), async (value) => {
      expect(value).toBeLessThan(500);
    });
    await expect(assertProperty(asyncFailing)).rejects.toThrow(
      /Counterexample: \[500\][\s\S]*Replay: FC_SEED=/,
    );
  });
});

describe('readPropertySettings', () => {
  it('runs each property as usual, with a fresh seed, when nothing is set', () => {
    expect(readPropertySettings({})).toEqual({ runsFactor: 1, seed: undefined, path: undefined });
    expect(readPropertySettings({ FC_RUNS_FACTOR: '', FC_SEED: '' })).toEqual({
      runsFactor: 1,
      seed: undefined,
      path: undefined,
    });
  });

  it('reads a runs factor, a seed and a path', () => {
    expect(readPropertySettings({ FC_RUNS_FACTOR: '50', FC_SEED: '-2119019614', FC_PATH: '2:1:0' })).toEqual({
      runsFactor: 50,
      seed: -2119019614,
      path: '2:1:0',
    });
  });

  it.each([
    [{ FC_RUNS_FACTOR: '0' }, 'FC_RUNS_FACTOR must be a whole number from 1 to 999999, not "0".'],
    [{ FC_RUNS_FACTOR: '2.5' }, 'FC_RUNS_FACTOR must be a whole number from 1 to 999999, not "2.5".'],
    [{ FC_SEED: 'abc' }, 'FC_SEED must be the integer seed a failed property printed, not "abc".'],
    [
      { FC_SEED: '99999999999' },
      'FC_SEED must be the integer seed a failed property printed, not "99999999999".',
    ],
    [
      { FC_SEED: '1', FC_PATH: '2;1' },
      'FC_PATH must be the path a failed property printed (like 12:0:3), not "2;1".',
    ],
    [{ FC_PATH: '2:1' }, 'FC_PATH replays a run only together with its FC_SEED.'],
  ])('refuses %j with one line saying what it takes', (env, message) => {
    expect(() => readPropertySettings(env)).toThrow(new Error(message));
  });
});

describe('property tests', () => {
  it('all run through assertProperty, so each one can be replayed and run longer', () => {
    const root = join(import.meta.dirname, '..', '..');
    // The runner itself, and this file, which replays a run by hand.
    const runner = [join('support', 'property.ts'), join('unit', 'support', 'property.test.ts')];
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !runner.includes(file))
      .filter((file) => /\bfc\.(assert|check)\(/.test(readFileSync(join(root, file), 'utf8')));
    expect(files).toEqual([]);
  });
});
