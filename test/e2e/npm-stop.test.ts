import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, type ExpectStatic, expect, it } from 'vitest';
import { StopSignals } from '../../tools/cli/stop-on-signals';
import { isPortFree } from '../../tools/local/ports';
import { WebhookReceiverFiles } from '../../tools/webhook-receiver/webhook-receiver';
import { captureChildOutput } from '../support/log-capture-run-log';
import { isStillRunning, type ProcessEntry } from '../support/process-tree';
import { type SpawnedProcess, spawnProcess } from '../support/spawned-process';

const repoRoot = resolve(import.meta.dirname, '..', '..');
/** The Node that npm scripts run on: the `node` dev dependency, first on their PATH. */
const devDependencyNode = realpathSync(join(repoRoot, 'node_modules', '.bin', 'node'));
const startupMs = 90_000;
const stopMs = 20_000;

// Everything a failed test left running, and the temporary folders. Cases run at the same time.
const started: SpawnedProcess[] = [];
const folders: string[] = [];
afterAll(async () => {
  for (const spawned of started) spawned.killAll();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** `npm <args>` as a user types it, in the repository, with `env` added to this environment. */
function npm(args: string[], env: Record<string, string>): SpawnedProcess {
  const spawned = spawnProcess('npm', args, { cwd: repoRoot, env: { ...process.env, ...env } });
  started.push(spawned);
  // What the scripts print is service output too: the run log's scan reads it (log-scan.test.ts).
  captureChildOutput(spawned.child, `npm ${args.join(' ')}`, import.meta.filename);
  return spawned;
}

async function temporaryFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/** The one process npm runs for the script: its own child, with no shell or tsx process between. */
function scriptProcess(spawned: SpawnedProcess, tree: ProcessEntry[], entryPoint: string): ProcessEntry {
  const children = tree.filter((entry) => entry.ppid === spawned.pid);
  expect(children.map((entry) => entry.command)).toEqual([
    expect.stringMatching(new RegExp(`^node --import tsx ${entryPoint}\\b`)),
  ]);
  const script = children[0] as ProcessEntry;
  expect(realpathSync(`/proc/${script.pid}/exe`)).toBe(devDependencyNode);
  return script;
}

async function portsInUse(ports: { port: number; host: string }[]): Promise<string[]> {
  const inUse: string[] = [];
  for (const { port, host } of ports) {
    const free = await isPortFree(port, host).catch((error: NodeJS.ErrnoException) => {
      // A host without IPv6 has no ::1 to listen on, so nothing can hold the port there.
      if (error.code === 'EADDRNOTAVAIL' || error.code === 'EAFNOSUPPORT') return true;
      throw error;
    });
    if (!free) inUse.push(`${host}:${port}`);
  }
  return inUse;
}

/** npm exits 0 when its script did; SIGHUP kills npm itself, as it does not forward that one. */
function expectedNpmExit(signal: NodeJS.Signals) {
  return signal === 'SIGHUP'
    ? [
        { code: null, signal: 'SIGHUP' },
        { code: 0, signal: null },
      ]
    : [{ code: 0, signal: null }];
}

interface RunningRuntime {
  readonly npm: SpawnedProcess;
  readonly tree: ProcessEntry[];
  readonly runtime: ProcessEntry;
  readonly jvm: ProcessEntry;
  readonly ports: { port: number; host: string }[];
}

/** `npm start -- --in-memory` on free ports with its own state folder, once it is ready. */
async function startRuntime(): Promise<RunningRuntime> {
  const stateDir = await temporaryFolder('merchant-payments-npm-start-');
  const spawned = npm(['start', '--', '--in-memory'], { PORT: '0', LOCAL_STATE_DIR: stateDir });
  await spawned.waitForOutput(/listening on http:\/\/\S+/, startupMs);
  const info = JSON.parse(await readFile(join(stateDir, 'runtime.json'), 'utf8'));
  const tree = spawned.descendants();
  const runtime = scriptProcess(spawned, tree, 'bin/local.ts');
  const jvm = tree.find((entry) => entry.command.includes('DynamoDBLocal.jar'));
  expect(jvm?.ppid).toBe(runtime.pid);
  return {
    npm: spawned,
    tree,
    runtime,
    jvm: jvm as ProcessEntry,
    ports: [
      { port: Number(new URL(info.baseUrl).port), host: '127.0.0.1' },
      { port: Number(new URL(info.dynamodbEndpoint).port), host: '127.0.0.1' },
    ],
  };
}

/** Waits for every process of `tree` to end and every one of `ports` to be free, each within stopMs. */
async function expectAllStopped(
  expect: ExpectStatic,
  tree: ProcessEntry[],
  ports: { port: number; host: string }[],
): Promise<void> {
  await expect
    .poll(() => tree.filter(isStillRunning).map((entry) => entry.command), { timeout: stopMs })
    .toEqual([]);
  await expect.poll(() => portsInUse(ports), { timeout: stopMs }).toEqual([]);
}

describe('what docs/local-runtime.md says of stopping', () => {
  it('states the exits these tests see: 0 on Ctrl-C and SIGTERM, 129 when a SIGHUP ends npm', async () => {
    const guide = (await readFile(join(repoRoot, 'docs', 'local-runtime.md'), 'utf8')).replace(/\s+/g, ' ');
    expect(guide).toContain('They exit 0 on Ctrl-C and SIGTERM;');
    expect(guide).toContain('npm itself dies of a SIGHUP without passing it on (exit status 129');
    expect(expectedNpmExit('SIGINT')).toEqual([{ code: 0, signal: null }]);
    expect(expectedNpmExit('SIGHUP')).toContainEqual({ code: null, signal: 'SIGHUP' });
  });
});

describe('npm start', () => {
  it.concurrent.for(StopSignals)(
    'stops completely, DynamoDB Local included, when %s is sent to the npm process',
    { timeout: startupMs + 2 * stopMs },
    async (signal, { expect }) => {
      const { npm, tree, ports } = await startRuntime();
      expect(await portsInUse(ports)).toEqual(ports.map(({ port, host }) => `${host}:${port}`));

      npm.child.kill(signal);

      expect(expectedNpmExit(signal)).toContainEqual(await npm.exited);
      await expectAllStopped(expect, tree, ports);
    },
  );

  it.concurrent(
    'takes DynamoDB Local down within seconds when its node process is killed with SIGKILL',
    async ({ expect }) => {
      const { npm, tree, runtime, jvm, ports } = await startRuntime();

      process.kill(runtime.pid, 'SIGKILL');

      await npm.exited;
      await expect.poll(() => isStillRunning(jvm), { timeout: 15_000, interval: 100 }).toBe(false);
      await expectAllStopped(expect, tree, ports);
    },
    startupMs + 2 * stopMs,
  );
});

describe('npm run webhook-receiver', () => {
  it.concurrent.for(StopSignals)(
    'stops completely and removes receiver.json when %s is sent to the npm process',
    { timeout: startupMs + 2 * stopMs },
    async (signal, { expect }) => {
      const dir = await temporaryFolder('merchant-payments-npm-receiver-');
      const spawned = npm(['run', 'webhook-receiver'], { RECEIVER_PORT: '0', RECEIVER_DIR: dir });
      const [, port] = await spawned.waitForOutput(
        /Webhook receiver listening on https:\/\/localhost:(\d+)/,
        startupMs,
      );
      const tree = spawned.descendants();
      scriptProcess(spawned, tree, 'bin/webhook-receiver.ts');
      const ports = ['127.0.0.1', '::1'].map((host) => ({ port: Number(port), host }));
      expect(await portsInUse(ports.slice(0, 1))).toEqual([`127.0.0.1:${port}`]);
      expect(existsSync(join(dir, WebhookReceiverFiles.info))).toBe(true);

      spawned.child.kill(signal);

      expect(expectedNpmExit(signal)).toContainEqual(await spawned.exited);
      await expectAllStopped(expect, tree, ports);
      expect(existsSync(join(dir, WebhookReceiverFiles.info))).toBe(false);
    },
  );
});
