import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '..', '..');

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  /** stderr without what npm itself may warn about this machine's npm configuration. */
  readonly stderr: string;
}

/** Runs a command as a user types it, in the repository, and waits for it to end. */
function run(args: readonly string[], env: Record<string, string> = {}): Promise<Finished> {
  return new Promise((done, fail) => {
    const child = spawn('npm', args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`npm ${args.join(' ')} did not end in 30 s`));
    }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const ownStderr = stderr
        .split('\n')
        .filter((line) => !line.startsWith('npm warn'))
        .join('\n');
      done({ code, stdout, stderr: ownStderr });
    });
  });
}

describe('every command says a wrong setting or option in one line and exits 2', () => {
  it.each([
    [
      ['start'],
      { PORT: 'eighty' },
      'error: PORT="eighty" is not accepted: it must be a whole number from 0 to 65535.',
    ],
    [
      ['start'],
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' },
      'error: WEBHOOK_ALLOW_PRIVATE_TARGETS="yes" is not accepted: it must be 1, 0, true or false.',
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
      ['run', '-s', 'admin', '--', 'keys', 'lost', '--local'],
      {},
      'error: unknown command "keys lost" (commands: ',
    ],
    [
      ['run', '-s', 'openapi', '--', '--write'],
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
