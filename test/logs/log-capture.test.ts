import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { logger } from '../../functions/http/logger';
import { runLogPath } from '../support/log-capture-run-log';

const thisFile = 'test/logs/log-capture.test.ts';

describe('log capture', () => {
  it('copies Powertools lines, console output and raw writes of a worker to the run log', () => {
    const probe = randomUUID();
    logger.info('log capture probe', { probe });
    console.error(JSON.stringify({ level: 'ERROR', source: 'log-capture', probe }));
    process.stderr.write(`log capture probe ${probe} in two `);
    process.stderr.write('writes\n');

    const lines = readFileSync(runLogPath(), 'utf8')
      .split('\n')
      .filter((line) => line.includes(probe));
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^\\[stdout ${thisFile}\\] \\{.*"message":"log capture probe".*\\}$`)),
      `[console.error ${thisFile}] {"level":"ERROR","source":"log-capture","probe":"${probe}"}`,
      `[stderr ${thisFile}] log capture probe ${probe} in two writes`,
    ]);
  });
});
