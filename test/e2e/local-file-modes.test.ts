import { execFile } from 'node:child_process';
import { chmod, lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { flushLocalAuthorizerCache } from '../../tools/local/authorizer-cache-flush';
import { type LocalRuntime, startLocalRuntime } from '../../tools/local/runtime';
import { readLocalSettings } from '../../tools/local/settings';
import { startWebhookReceiver, type WebhookReceiver } from '../../tools/webhook-receiver/webhook-receiver';

const execFileAsync = promisify(execFile);

let workDir: string;
let previousUmask: number;
const running: { stop(): Promise<void> }[] = [];

// The most common umask: without care, what is written under it is readable by every local user.
beforeAll(async () => {
  previousUmask = process.umask(0o022);
  workDir = await mkdtemp(join(tmpdir(), 'merchant-payments-modes-'));
});
afterEach(async () => {
  for (const piece of running.splice(0).reverse()) await piece.stop();
});
afterAll(async () => {
  process.umask(previousUmask);
  await rm(workDir, { recursive: true, force: true });
});

/**
 * What the guides have run under `.local/` by the end of their paid invoice: `npm run
 * webhook-receiver`, then `npm start` (its own DynamoDB Local, data on disk), the signing secret
 * appended with `>> "$HOOKS/secrets"`, a delivery received, and the admin CLI's `keys revoke
 * --local` flushing the authorizer cache.
 */
async function runTheReadme(local: string): Promise<void> {
  const hooks = join(local, 'webhook-receiver');
  const receiver: WebhookReceiver = await startWebhookReceiver({ port: 0, dir: hooks, log: () => undefined });
  running.push({ stop: () => receiver.close() });
  const runtime: LocalRuntime = await startLocalRuntime({
    settings: readLocalSettings({ PORT: '0' }),
    inMemory: false,
    stateDir: local,
  });
  running.push(runtime);
  await execFileAsync('bash', ['-c', 'echo whsec_dGVzdA== >> "$HOOKS/secrets"'], {
    env: { ...process.env, HOOKS: hooks },
  });
  await post(`${receiver.url}/webhooks`, await readFile(receiver.caCertPath as string, 'utf8'));
  await flushLocalAuthorizerCache(local);
}

/** One unsigned delivery: the receiver refuses it and records it in received.ndjson. */
function post(url: string, ca: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { method: 'POST', ca, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    sent.once('error', reject);
    sent.end('{"type":"invoices.InvoicePaid"}');
  });
}

/** Every entry under `dir`, relative to it, with its permission bits (directories end in `/`). */
async function modesUnder(dir: string): Promise<Record<string, string>> {
  const modes: Record<string, string> = {};
  const walk = async (path: string): Promise<void> => {
    const info = await lstat(path);
    const name = relative(dir, path);
    // The folder itself is `/`.
    modes[info.isDirectory() ? `${name}/` : name] = (info.mode & 0o777).toString(8);
    if (info.isDirectory()) for (const entry of await readdir(path)) await walk(join(path, entry));
  };
  await walk(dir);
  return modes;
}

/** Loosens every entry as an earlier version, or another umask, left it. */
async function loosen(dir: string): Promise<void> {
  for (const name of Object.keys(await modesUnder(dir))) {
    await chmod(join(dir, name), name.endsWith('/') ? 0o755 : 0o644);
  }
}

function expectOpenToTheUserOnly(modes: Record<string, string>): void {
  const wrong = Object.entries(modes).filter(([name, mode]) => mode !== (name.endsWith('/') ? '700' : '600'));
  expect(wrong).toEqual([]);
}

const expectedEntries = [
  '/',
  'runtime.json',
  'dynamodb.key',
  'secrets.key',
  'authorizer-cache-flush',
  'operator.sock',
  'dynamodb/',
  'webhook-receiver/',
  'webhook-receiver/ca.crt',
  'webhook-receiver/ca.key',
  'webhook-receiver/server.crt',
  'webhook-receiver/server.key',
  'webhook-receiver/secrets',
  'webhook-receiver/received.ndjson',
  'webhook-receiver/receiver.json',
];

describe('.local/ under a umask of 022', () => {
  it('is open to the user only, every folder 0700 and every file 0600, after the guides’ commands', async () => {
    const local = join(workDir, '.local');

    await runTheReadme(local);

    const modes = await modesUnder(local);
    expect(Object.keys(modes)).toEqual(expect.arrayContaining(expectedEntries));
    expect(Object.keys(modes).some((name) => /^dynamodb\/[0-9a-f]{32}_us-east-1\.db$/.test(name))).toBe(true);
    expectOpenToTheUserOnly(modes);
  }, 90_000);

  it('is closed again on the next start when an earlier run left it open', async () => {
    const local = join(workDir, '.local');
    await loosen(local);
    expect(Object.values(await modesUnder(local))).toContain('644');

    await runTheReadme(local);

    expectOpenToTheUserOnly(await modesUnder(local));
  }, 90_000);
});
