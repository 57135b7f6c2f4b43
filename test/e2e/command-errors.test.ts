import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runToEnd } from '../support/spawned-process';

const repoRoot = resolve(import.meta.dirname, '..', '..');

/**
 * Runs a command as a user types it, in the repository; npm's warnings about this machine's npm
 * configuration are dropped. A command that got as far as listening would take a free port, never
 * its default (3000, 4443), which may be anyone's on this machine.
 */
async function run(args: readonly string[], env: Record<string, string> = {}) {
  const result = await runToEnd('npm', args, {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', RECEIVER_PORT: '0', ...env },
    timeoutMs: 30_000,
  });
  const stderr = result.stderr
    .split('\n')
    .filter((line) => !line.startsWith('npm warn'))
    .join('\n');
  return { ...result, stderr };
}

/**
 * One spawned case per command and kind of refusal (a setting, an option): each proves the command
 * turns its parser's refusal into one line and exit 2. The parsers' other refusals are read in
 * process: test/unit/local/settings.test.ts, test/unit/admin/cli.test.ts and the like.
 */
describe('every command says a wrong setting or option in one line and exits 2', () => {
  it.each([
    [
      ['start'],
      { PORT: 'eighty' },
      'error: PORT="eighty" is not accepted: it must be a whole number from 0 to 65535.',
    ],
    [['start', '--', '--persist'], {}, 'error: unknown option --persist: the only option is --in-memory'],
    [
      ['run', 'webhook-receiver'],
      { RECEIVER_PORT: '-3' },
      'error: RECEIVER_PORT="-3" is not accepted: it must be a whole number from 0 to 65535.',
    ],
    [
      ['run', '-s', 'admin', '--', 'keys', 'list', '--merchant', 'mer_x', '--local'],
      { WEBHOOK_TIMEOUT_MS: '10s' },
      'error: WEBHOOK_TIMEOUT_MS="10s" is not accepted: it must be a whole number from 1 to 60000.',
    ],
    [
      ['run', '-s', 'soak', '--', '--duration', 'long'],
      {},
      'error: --duration "long" is not accepted: it must be a whole number of seconds from 1 to 3600.',
    ],
    [
      ['run', '-s', 'openapi', '--', '--write'],
      {},
      'error: unknown option --write: the only option is --check',
    ],
    [
      ['run', '-s', 'api-docs', '--', '--write'],
      {},
      'error: unknown option --write: the only option is --check',
    ],
  ] as const)('npm %j with %j', async (args, env, line) => {
    const result = await run(args, env);
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.startsWith(line)).toBe(true);
    expect(result.stdout).not.toContain('error');
  });
});
