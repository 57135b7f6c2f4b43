import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type HttpsReceiver, startHttpsReceiver } from '../../support/https-receiver';
import { loadTestCa } from '../../support/test-ca';

let receiver: HttpsReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function start(): Promise<HttpsReceiver> {
  receiver = await startHttpsReceiver();
  return receiver;
}

interface SendOptions {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: Buffer | string;
  readonly timeoutMs?: number;
}

interface Sent {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A plain `https.request`: no `ca`, no agent, nothing but what the process trusts by default. */
function send(url: string, options: SendOptions = {}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () => req.destroy(new Error('client timeout')));
    }
    req.end(options.body);
  });
}

describe('startHttpsReceiver', () => {
  it('is trusted by a plain https.request through NODE_EXTRA_CA_CERTS, without a ca option', async () => {
    const hooks = await start();
    const ca = await loadTestCa(inject('testCaDir'));
    const trusted = await readFile(process.env.NODE_EXTRA_CA_CERTS ?? '', 'utf8');
    expect(trusted).toContain(ca.caCertPem.trim());

    const response = await send(hooks.url());

    expect(hooks.url()).toBe(`https://localhost:${hooks.port}/hooks`);
    expect(response).toMatchObject({ status: 200, body: 'ok' });
  });

  it('is trusted by fetch as well, on 127.0.0.1 as on localhost', async () => {
    const hooks = await start();

    const byName = await fetch(hooks.url('/a'), { method: 'POST', body: '{}' });
    const byAddress = await fetch(`https://127.0.0.1:${hooks.port}/b`, { method: 'POST', body: '{}' });

    expect([byName.status, byAddress.status]).toEqual([200, 200]);
    expect(hooks.requests.map((r) => r.path)).toEqual(['/a', '/b']);
  });

  it('records the method, path with query, lowercased headers and the exact body bytes', async () => {
    const hooks = await start();
    const body = Buffer.from([0x7b, 0xff, 0x00, 0xc3, 0x28, 0x7d]);
    const before = Date.now();

    await send(hooks.url('/hooks/x?attempt=2'), {
      method: 'PUT',
      headers: { 'Webhook-Id': 'msg_1', 'Content-Type': 'application/json' },
      body,
    });

    expect(hooks.requests).toHaveLength(1);
    const [received] = hooks.requests;
    expect(received).toMatchObject({
      method: 'PUT',
      path: '/hooks/x?attempt=2',
      headers: expect.objectContaining({ 'webhook-id': 'msg_1', 'content-type': 'application/json' }),
    });
    expect(received?.rawBody.equals(body)).toBe(true);
    expect(received?.receivedAt).toBeGreaterThanOrEqual(before);
    expect(received?.receivedAt).toBeLessThanOrEqual(Date.now());
  });

  it('answers with the status, headers and body respondWith returns', async () => {
    const hooks = await start();
    hooks.respondWith((req) => ({
      status: 503,
      headers: { 'retry-after': '7' },
      body: `busy ${req.path}`,
    }));

    const response = await send(hooks.url());

    expect(response).toMatchObject({ status: 503, body: 'busy /hooks', headers: { 'retry-after': '7' } });
  });

  it('answers a redirect that https.request does not follow', async () => {
    const hooks = await start();
    hooks.respondWith(() => ({ status: 302, headers: { location: hooks.url('/elsewhere') } }));

    const response = await send(hooks.url());

    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(hooks.url('/elsewhere'));
    expect(hooks.requests).toHaveLength(1);
  });

  it('waits delayMs before answering', async () => {
    const hooks = await start();
    hooks.respondWith(() => ({ status: 200, delayMs: 300 }));
    const started = Date.now();

    const response = await send(hooks.url());

    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('never answers a hung request, and close() ends its socket at once', async () => {
    const hooks = await start();
    hooks.respondWith(() => ({ status: 200, hang: true }));

    await expect(send(hooks.url(), { timeoutMs: 200 })).rejects.toThrow('client timeout');
    expect(hooks.requests).toHaveLength(1);

    const hungUp = expect(send(hooks.url())).rejects.toThrow(/socket hang up|ECONNRESET/);
    await hooks.waitFor(2);
    const closing = Date.now();
    await hooks.close();
    expect(Date.now() - closing).toBeLessThan(1_000);
    await hungUp;
  });

  it('drops the connection of a dropped request without an answer, and still records it', async () => {
    const hooks = await start();
    hooks.respondWith(() => ({ status: 200, drop: true }));

    await expect(send(hooks.url())).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(hooks.requests).toHaveLength(1);
  });

  it('waitFor resolves once enough requests have arrived', async () => {
    const hooks = await start();
    const waiting = hooks.waitFor(2, 5_000);

    await send(hooks.url('/1'));
    await send(hooks.url('/2'));

    expect((await waiting).map((r) => r.path)).toEqual(['/1', '/2']);
  });

  it('waitFor rejects when the requests do not arrive in time', async () => {
    const hooks = await start();
    await send(hooks.url());

    await expect(hooks.waitFor(2, 100)).rejects.toThrow('Expected 2 request(s) within 100 ms; received 1.');
  });

  it('clear forgets the requests received so far', async () => {
    const hooks = await start();
    await send(hooks.url());

    hooks.clear();
    await send(hooks.url('/after'));

    expect(hooks.requests.map((r) => r.path)).toEqual(['/after']);
  });
});
