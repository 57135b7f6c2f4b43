import { join, resolve } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { isStillRunning, processEntry } from '../../support/process-tree';
import { type SpawnedProcess, spawnProcess } from '../../support/spawned-process';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
const fixture = join(repoRoot, 'test', 'support', 'orphan-watchdog-process.ts');

// Whatever a failed test left running; the tests run at the same time.
const started: SpawnedProcess[] = [];
afterAll(() => {
  for (const spawned of started) spawned.killAll();
});

/** The fixture with its child under the watchdog, and that child. */
async function startFixture(childCommand: string, graceSeconds: number) {
  const spawned = spawnProcess(
    process.execPath,
    ['--import', 'tsx', fixture, childCommand, String(graceSeconds)],
    { cwd: repoRoot },
  );
  started.push(spawned);
  const [, pid] = await spawned.waitForOutput(/^child (\d+)$/m, 20_000);
  const child = processEntry(Number(pid));
  if (child === undefined) throw new Error(`the fixture's child ${pid} is not running`);
  // Remembered for cleanup before anything is killed.
  spawned.descendants();
  return { spawned, child };
}

describe('endWithThisProcess', () => {
  it.concurrent('ends the child when the process that started it is killed with SIGKILL', async ({
    expect,
  }) => {
    const { spawned, child } = await startFixture('exec sleep 300', 5);

    spawned.child.kill('SIGKILL');

    await expect.poll(() => isStillRunning(child), { timeout: 15_000, interval: 100 }).toBe(false);
  });

  it.concurrent('kills a child that ignores SIGTERM once the grace period is over', async ({ expect }) => {
    const { spawned, child } = await startFixture("trap '' TERM; exec sleep 300", 1);

    spawned.child.kill('SIGKILL');

    await expect.poll(() => isStillRunning(child), { timeout: 15_000, interval: 100 }).toBe(false);
  });

  it.concurrent('goes away when the child exits first, and leaves the process that started it alone', async ({
    expect,
  }) => {
    const { spawned, child } = await startFixture('exec sleep 1', 5);
    expect(watchdogsOf(spawned)).toHaveLength(1);

    await spawned.waitForOutput(/^child exited$/m, 15_000);

    await expect.poll(() => watchdogsOf(spawned), { timeout: 10_000 }).toEqual([]);
    expect(isStillRunning(child)).toBe(false);
    expect(processEntry(spawned.pid)).toBeDefined();
  });
});

/** The fixture's watchdog processes still running (`sh -c <script> orphan-watchdog <pid> <grace>`). */
function watchdogsOf(spawned: SpawnedProcess): string[] {
  return spawned
    .descendants()
    .filter((entry) => entry.command.includes(' orphan-watchdog ') && isStillRunning(entry))
    .map((entry) => entry.command);
}
