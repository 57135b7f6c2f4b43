import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { runAdminInProcess } from './admin-in-process';

const repoRoot = resolve(import.meta.dirname, '../..');

/**
 * The real admin CLI as an operator runs it (`npm run admin`: the project's own Node with the tsx
 * loader), in its own process with the environment `env`. Resolves when it exits.
 */
export async function runAdminProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((done) => child.once('close', done));
  return { code, stdout, stderr };
}

/** What `localAdmin` answers: the exit code, both streams and, on success, the parsed `--json` output. */
export interface LocalAdminResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly output: any;
}

/**
 * The admin CLI with `--local --json` against the runtime whose state folder is `stateDir()`, in its
 * own process as an operator runs it, or with `inProcess` in this one (`runAdminInProcess`): the same
 * commands without the second of CPU a process start costs, for a file about what they do.
 */
export function localAdmin(
  stateDir: () => string,
  { inProcess = false } = {},
): (...args: string[]) => Promise<LocalAdminResult> {
  const run = inProcess ? runAdminInProcess : runAdminProcess;
  return async (...args) => {
    const { code, stdout, stderr } = await run([...args, '--local', '--json'], {
      ...process.env,
      LOCAL_STATE_DIR: stateDir(),
    });
    return { code, stdout, stderr, output: code === 0 ? JSON.parse(stdout) : undefined };
  };
}
