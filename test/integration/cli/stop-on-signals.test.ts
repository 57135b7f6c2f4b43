import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ForcedExitCode, StopSignals } from '../../../tools/cli/stop-on-signals';
import { isStillRunning } from '../../support/process-tree';
import { type SpawnedProcess, spawnProcess } from '../../support/spawned-process';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
const fixture = join(repoRoot, 'test', 'support', 'stop-on-signals-process.ts');

// Whatever a failed test left running; the tests of each signal run at the same time.
const started: SpawnedProcess[] = [];
afterAll(() => {
  for (const spawned of started) spawned.killAll();
});

/** The fixture process, ready; `stopTakes` as its argument says. */
async function startFixture(stopTakes: string): Promise<SpawnedProcess> {
  const spawned = spawnProcess(process.execPath, ['--import', 'tsx', fixture, stopTakes], { cwd: repoRoot });
  started.push(spawned);
  await spawned.waitForOutput(/^ready$/m, 20_000);
  return spawned;
}

describe('stopOnSignals', () => {
  it.concurrent.for(StopSignals)(
    'runs the stop on %s and exits 0 once it is done',
    async (signal, { expect }) => {
      const spawned = await startFixture('200');

      spawned.child.kill(signal);

      expect(await spawned.exited).toEqual({ code: 0, signal: null });
      expect(spawned.output()).toMatch(/^stopping\nstopped\nexit 0\n$/m);
    },
  );

  it('takes a signal that comes right after the first as the same request (npm forwards a Ctrl-C)', async () => {
    const spawned = await startFixture('1500');

    spawned.child.kill('SIGINT');
    spawned.child.kill('SIGTERM');

    expect(await spawned.exited).toEqual({ code: 0, signal: null });
    expect(spawned.output()).toContain('stopped\nexit 0\n');
    expect(spawned.output()).not.toContain('again');
  });

  it(`exits at once with ${ForcedExitCode} on a second signal while the stop still runs`, async () => {
    const spawned = await startFixture('never');
    spawned.child.kill('SIGTERM');
    await spawned.waitForOutput(/^stopping$/m, 10_000);
    // Past the window in which a repeat counts as the same request.
    await new Promise((done) => setTimeout(done, 1_200));

    spawned.child.kill('SIGINT');

    expect(await spawned.exited).toEqual({ code: ForcedExitCode, signal: null });
    expect(spawned.output()).toContain('SIGINT again while stopping: exiting without waiting\n');
    expect(spawned.output()).not.toContain('stopped');
  });

  it('exits 0 at once when asked to stop before there is anything to stop', async () => {
    const spawned = await startFixture('unset');

    spawned.child.kill('SIGHUP');

    expect(await spawned.exited).toEqual({ code: 0, signal: null });
    expect(spawned.output()).not.toContain('stopping');
  });

  it('runs the stop when its parent process is gone (npm dies of SIGHUP without forwarding it)', async () => {
    // A shell stands for npm: the fixture is its child, and the shell is killed outright.
    const parent = spawnProcess(
      'sh',
      ['-c', '"$0" --import tsx "$1" 200 & wait', process.execPath, fixture],
      { cwd: repoRoot },
    );
    started.push(parent);
    await parent.waitForOutput(/^ready$/m, 20_000);
    const [stopper] = parent.descendants();
    expect(stopper).toBeDefined();

    parent.child.kill('SIGKILL');

    await parent.waitForOutput(/^exit 0$/m, 10_000);
    expect(parent.output()).toContain('stopping\nstopped\nexit 0\n');
    await expect
      .poll(() => stopper !== undefined && isStillRunning(stopper), { timeout: 10_000 })
      .toBe(false);
  });
});
