import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startOperatorChannel } from '../../tools/local/operator-channel';
import { LOOPBACK_HOST } from '../../tools/local/ports';
import { startLocalEntry } from '../support/local-entry';

/**
 * `npm start` runs `node --import tsx bin/local.ts`; this starts the same entry point as a separate
 * process (npm-stop.test.ts goes through npm itself), on a free port unless `env` names one: its
 * default, 3000, may be anyone's on this machine.
 */
const startLocal = (env: NodeJS.ProcessEnv) =>
  startLocalEntry(['--in-memory'], { PORT: '0', ...env }, import.meta.filename);

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolveExit) => child.once('exit', (code) => resolveExit(code)));
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe('npm start', () => {
  it('serves the catalog routes with the key it writes to runtime.json', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'merchant-payments-start-'));
    const { child, output } = startLocal({ ...process.env, PORT: '0', LOCAL_STATE_DIR: stateDir });
    const done = exited(child);
    cleanups.push(async () => {
      child.kill('SIGTERM');
      await done;
      await rm(stateDir, { recursive: true, force: true });
    });
    await expect.poll(output, { timeout: 45_000, interval: 200 }).toMatch(/listening on http:\/\/\S+/);
    const runtime = JSON.parse(await readFile(join(stateDir, 'runtime.json'), 'utf8'));
    expect(Object.keys(runtime).sort()).toEqual(
      ['apiKey', 'baseUrl', 'dynamodbEndpoint', 'mailInboxUrl', 'merchantId', 'stage', 'tableName'].sort(),
    );
    expect(output()).toContain(runtime.baseUrl);
    expect(output()).not.toContain(runtime.apiKey);

    const headers = { Authorization: `Bearer ${runtime.apiKey}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${runtime.baseUrl}/catalog/products`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': 'start-1' },
      body: JSON.stringify({ merchantId: runtime.merchantId, name: 'Started' }),
    });
    expect(created.status).toBe(201);
    const listed = await fetch(`${runtime.baseUrl}/catalog/products?merchantId=${runtime.merchantId}`, {
      headers,
    });
    const products = (await listed.json()) as { items: { name: string }[] };
    expect(products.items.map((item) => item.name)).toEqual(['Started']);

    // The portal link it prints opens the ready merchant's portal, once.
    await expect.poll(output, { timeout: 10_000, interval: 200 }).toMatch(/Merchant portal .*: http:\/\/\S+/);
    const portalUrl = /Merchant portal .*: (http:\/\/\S+)/.exec(output())?.[1] ?? '';
    expect(portalUrl.startsWith(`${runtime.baseUrl}/portal/psn_`)).toBe(true);
    const page = await fetch(portalUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const exchange = () =>
      fetch(`${runtime.baseUrl}/portal/exchange`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: new URL(portalUrl).hash.slice(1) }),
      });
    const opened = (await (await exchange()).json()) as {
      portalSession: { merchantId: string; scope: string };
    };
    expect(opened.portalSession).toMatchObject({ merchantId: runtime.merchantId, scope: 'manage' });
    expect((await exchange()).status).toBe(410);

    child.kill('SIGTERM');
    expect(await done).toBe(0);
  }, 60_000);

  // No Java on the PATH: a runtime that got as far as starting DynamoDB Local would say so instead.
  const withoutJava = (stateDir: string, env: NodeJS.ProcessEnv = {}) =>
    startLocal({ PATH: '/nonexistent', HOME: process.env.HOME, LOCAL_STATE_DIR: stateDir, ...env });

  it('says in one line that its port is taken, before starting anything', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'merchant-payments-port-'));
    const taken = createServer();
    await new Promise<void>((listening) => taken.listen(0, LOOPBACK_HOST, listening));
    cleanups.push(async () => {
      await new Promise((closed) => taken.close(closed));
      await rm(stateDir, { recursive: true, force: true });
    });
    const port = (taken.address() as { port: number }).port;
    const { child, output } = withoutJava(stateDir, { PORT: String(port) });
    expect(await exited(child)).toBe(1);
    expect(output().trim().split('\n')).toEqual([
      `error: port ${port} on ${LOOPBACK_HOST} is in use (another npm start?): stop what listens there, or set PORT to a free port (0 picks one)`,
    ]);
  }, 30_000);

  it('says in one line that another runtime uses its state folder, before starting anything', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'merchant-payments-busy-'));
    const running = await startOperatorChannel({
      stateDir,
      operations: {
        deadLetterCount: () => 0,
        redriveDeadLetters: () => 0,
        reconcileNow: async () => ({ requeued: 0 }),
      },
    });
    cleanups.push(async () => {
      await running.close();
      await rm(stateDir, { recursive: true, force: true });
    });
    const { child, output } = withoutJava(stateDir, { PORT: '0' });
    expect(await exited(child)).toBe(1);
    const lines = output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `error: another npm start is running with the state folder ${stateDir} (its operator socket answers): stop it first, or give this one its own LOCAL_STATE_DIR`,
    );
  }, 30_000);

  it('says in one line what to install when Java is missing', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'merchant-payments-nojava-'));
    cleanups.push(() => rm(stateDir, { recursive: true, force: true }));
    const { child, output } = withoutJava(stateDir);
    expect(await exited(child)).toBe(1);
    const lines = output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/Java/);
    expect(lines[0]).toMatch(/openjdk-17-jre-headless/);
  }, 30_000);
});
