import { resolve } from 'node:path';
import { captureChildOutput } from './log-capture-run-log';
import { type SpawnedProcess, spawnProcess } from './spawned-process';

const repoRoot = resolve(import.meta.dirname, '..', '..');

/**
 * The entry point of `npm start` (`node --import tsx bin/local.ts`) as a separate process, with
 * `args` and exactly `env`. What it prints is service output too, so it also goes to the run log,
 * whose scan reads it (log-scan.test.ts), under `testFile`.
 */
export function startLocalEntry(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  testFile: string,
): SpawnedProcess {
  const started = spawnProcess(process.execPath, ['--import', 'tsx', 'bin/local.ts', ...args], {
    cwd: repoRoot,
    env,
  });
  captureChildOutput(started.child, 'npm start', testFile);
  return started;
}
