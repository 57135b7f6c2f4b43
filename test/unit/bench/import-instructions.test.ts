import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectedInstructions,
  importInstructions,
  valgrindAvailable,
} from '../../../tools/bench/import-instructions';

describe('collectedInstructions', () => {
  it("reads the count from callgrind's closing lines", () => {
    const stderr = [
      '==10201== Callgrind, a call-graph generating cache profiler',
      '==10201== Events    : Ir',
      '==10201== Collected : 477282073',
      '==10201== I   refs:      477,282,073',
    ].join('\n');
    expect(collectedInstructions(stderr)).toBe(477_282_073);
  });

  it('gives undefined when the process reported no count', () => {
    expect(collectedInstructions('valgrind: command not found')).toBeUndefined();
  });
});

// valgrind is a Debian package: .ci/run installs it where it can; elsewhere this part is skipped.
const hasValgrind = await valgrindAvailable();

describe.skipIf(!hasValgrind)('importInstructions under valgrind', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'merchant-payments-instructions-test-'));
    await writeFile(join(dir, 'empty.mjs'), 'export {};\n');
    await writeFile(join(dir, 'small.mjs'), 'export const n = 1;\n');
    // A module whose import does measurably more work: two million loop turns at load.
    await writeFile(
      join(dir, 'busy.mjs'),
      'let total = 0;\nfor (let i = 0; i < 2000000; i += 1) total += i % 7;\nexport const n = total;\n',
    );
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('counts an import net of an empty one: near zero for a one-line module, more for a busy one', async () => {
    const counts = await importInstructions(
      new Map([
        ['small', join(dir, 'small.mjs')],
        ['busy', join(dir, 'busy.mjs')],
      ]),
      { emptyBundle: join(dir, 'empty.mjs'), nodeOptions: undefined },
    );
    const small = counts.get('small') as number;
    const busy = counts.get('busy') as number;
    // Node's start-up, about 90 million instructions, is the same for all three and subtracted.
    // A one-line module adds about ten thousand, a bound that holds only because the count is the
    // same from one process to the next: without V8's --predictable, empty imports side by side
    // read 85 to 99 million. The busy loop adds about fifty million.
    expect(Math.abs(small)).toBeLessThan(100_000);
    expect(busy).toBeGreaterThan(small + 20_000_000);
  }, 120_000);
});
