import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../functions/domain/api-key';
import { logger } from '../../functions/observability/logger';
import { RunLogVariable, runLogPath } from '../support/log-capture-run-log';
import { runToEnd } from '../support/spawned-process';

const thisFile = 'test/logs/log-capture.test.ts';
const fixture = 'test/logs/fixtures/service-logs.fixture.ts';

/** The environment of a vitest run started from this worker: this worker's, without vitest's own. */
function nestedRunEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'));
  return { ...Object.fromEntries(inherited), ...extra };
}

describe('log capture', () => {
  it('sends Powertools lines, console output and raw writes of a worker to the run log', () => {
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

  it('keeps the service’s lines out of the terminal, and the log scan still reads every one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'merchant-payments-log-capture-'));
    try {
      const runLog = join(folder, 'run.log');
      const probe = randomUUID();
      const planted = generateApiKey('sandbox', randomBytes);
      const plantedKey = planted.apiKey;
      const run = await runToEnd(
        process.execPath,
        ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/logs/fixtures/log-capture.config.ts'],
        {
          env: nestedRunEnvironment({
            [RunLogVariable]: runLog,
            LOG_CAPTURE_PROBE: probe,
            LOG_CAPTURE_PLANTED_KEY: plantedKey,
          }),
          timeoutMs: 60_000,
        },
      );
      const terminal = stripVTControlCharacters(`${run.stdout}\n${run.stderr}`);

      // The terminal has vitest's report: the line the test printed for it, no line the service logged.
      expect(terminal.split('\n').filter((line) => line.includes(probe))).toEqual([`report line ${probe}`]);
      expect(terminal.includes(plantedKey), 'the planted key reached the terminal').toBe(false);

      // The run log has every line, each tagged with its source and file.
      expect(existsSync(runLog)).toBe(true);
      const logged = readFileSync(runLog, 'utf8')
        .split('\n')
        .filter((line) => line.includes(probe));
      const linesBySource: Record<string, number> = {};
      for (const line of logged) {
        const source = line.slice(1, line.indexOf(` ${fixture}] `));
        linesBySource[source] = (linesBySource[source] ?? 0) + 1;
      }
      // 300 access lines and the raw write on stdout; Powertools writes a warning to stderr.
      expect(linesBySource).toEqual({ stdout: 301, 'console.error': 1, stderr: 1, report: 1 });
      expect(logged.filter((line) => line.includes(`raw write ${probe}`))).toHaveLength(1);

      // The scan, run after the worker as in the suite, read that file and found the key, masked.
      expect(run.code).toBe(1);
      expect(terminal).toContain('secrets in 1 places');
      expect(terminal).toMatch(new RegExp(`\\[stderr ${fixture}\\] API key ${planted.keyPrefix}_…`));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
