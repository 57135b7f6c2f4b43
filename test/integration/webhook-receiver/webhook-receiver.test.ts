import { randomBytes, X509Certificate } from 'node:crypto';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { deliveryBody, deliveryHeaders } from '../../../functions/domain/webhook-signature';
import { LocalCaFiles } from '../../../tools/webhook-receiver/local-ca';
import {
  startWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from '../../../tools/webhook-receiver/webhook-receiver';
import { receivedDeliveries } from '../../support/received-deliveries';
import { TestCaFiles } from '../../support/test-ca';

let dir: string;
let receiver: WebhookReceiver | undefined;
let logged: string[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'webhook-receiver-'));
  logged = [];
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** The receiver on a free port in `dir`, serving the suite's test CA certificate unless `ownCa`. */
async function start({ ownCa = false } = {}): Promise<WebhookReceiver> {
  const testCaDir = inject('testCaDir');
  const tls: WebhookReceiverOptions['tls'] = {
    keyPath: join(testCaDir, TestCaFiles.serverKey),
    certPath: join(testCaDir, TestCaFiles.serverCert),
    caCertPath: join(testCaDir, TestCaFiles.caCert),
  };
  receiver = await startWebhookReceiver({
    port: 0,
    dir,
    log: (line) => logged.push(line),
    ...(ownCa ? {} : { tls }),
  });
  return receiver;
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A delivery signed with `secret` the way the dispatcher signs it. */
function signedDelivery(secret: string, type = 'invoices.InvoicePaid') {
  const deliveryId = `whkdel_${randomBytes(8).toString('hex')}`;
  const data = { invoiceId: 'inv_01jzb8bx3y4z5a6b7c8d9e0f1g', amount: 1800, currency: 'USD' };
  const body = deliveryBody({ deliveryId, eventType: type, createdAt: new Date().toISOString(), data });
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    deliveryId,
    type,
    data,
    body,
    headers: { ...deliveryHeaders({ secret, deliveryId, timestamp, body }) },
  };
}

function post(
  url: string,
  delivery: { body: string | Buffer; headers: Record<string, string> },
  ca?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/webhooks`,
      { method: 'POST', headers: delivery.headers, ...(ca ? { ca } : {}) },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(delivery.body);
  });
}

const receivedLines = () => receivedDeliveries(dir);

describe('startWebhookReceiver', () => {
  it('writes receiver.json with its localhost URL on the real port and the CA to trust', async () => {
    const hooks = await start();
    expect(hooks.port).toBeGreaterThan(0);
    expect(JSON.parse(await readFile(join(dir, 'receiver.json'), 'utf8'))).toEqual({
      url: `https://localhost:${hooks.port}`,
      caCertPath: join(inject('testCaDir'), TestCaFiles.caCert),
    });
    await hooks.close();
    await expect(readFile(join(dir, 'receiver.json'))).rejects.toThrow(/ENOENT/);
  });

  it('accepts a delivery signed with a listed secret: 200, one verified line, one log line', async () => {
    const secret = newSecret();
    await writeFile(join(dir, 'secrets'), `${newSecret()}\n${secret}\n`);
    const hooks = await start();
    const delivery = signedDelivery(secret);

    expect(await post(hooks.url, delivery)).toBe(200);

    expect(await receivedLines()).toEqual([
      {
        receivedAt: expect.any(String),
        id: delivery.deliveryId,
        type: 'invoices.InvoicePaid',
        verified: true,
        data: delivery.data,
      },
    ]);
    expect(logged).toEqual([`received invoices.InvoicePaid ${delivery.deliveryId}`]);
  });

  it('answers 401 to a wrong signature, an unknown secret and a missing secrets file, recording no data', async () => {
    const hooks = await start();
    const known = newSecret();
    const unsigned = signedDelivery(known);
    expect(await post(hooks.url, unsigned)).toBe(401);

    await writeFile(join(dir, 'secrets'), `${known}\n`);
    const tampered = signedDelivery(known);
    tampered.headers['Merchant-Webhook-Signature'] = `v1=${'0'.repeat(64)}`;
    expect(await post(hooks.url, tampered)).toBe(401);
    const foreign = signedDelivery(newSecret(), 'payments.PaymentCreated');
    expect(await post(hooks.url, foreign)).toBe(401);

    const lines = await receivedLines();
    expect(lines).toEqual([
      {
        receivedAt: expect.any(String),
        id: unsigned.deliveryId,
        type: 'invoices.InvoicePaid',
        verified: false,
        reason: 'no_secret',
      },
      {
        receivedAt: expect.any(String),
        id: tampered.deliveryId,
        type: 'invoices.InvoicePaid',
        verified: false,
        reason: 'signature_mismatch',
      },
      {
        receivedAt: expect.any(String),
        id: foreign.deliveryId,
        type: 'payments.PaymentCreated',
        verified: false,
        reason: 'signature_mismatch',
      },
    ]);
    expect(logged).toHaveLength(3);
    for (const line of logged) expect(line).toMatch(/^rejected .* \(401\)$/);
  });

  it('accepts a secret appended to the secrets file after it started, without a restart', async () => {
    await writeFile(join(dir, 'secrets'), `${newSecret()}\n`);
    const hooks = await start();
    const secret = newSecret();
    const delivery = signedDelivery(secret);
    expect(await post(hooks.url, delivery)).toBe(401);

    await appendFile(join(dir, 'secrets'), `${secret}\n`);

    expect(await post(hooks.url, delivery)).toBe(200);
    expect((await receivedLines()).map((line) => line.verified)).toEqual([false, true]);
  });

  it('writes and prints neither a secret nor a signature', async () => {
    const secret = newSecret();
    await writeFile(join(dir, 'secrets'), `${secret}\n`);
    const hooks = await start();
    const accepted = signedDelivery(secret);
    const refused = signedDelivery(newSecret());
    expect(await post(hooks.url, accepted)).toBe(200);
    expect(await post(hooks.url, refused)).toBe(401);

    const written = await Promise.all(
      (await readdir(dir))
        .filter((name) => name !== 'secrets')
        .map((name) => readFile(join(dir, name), 'utf8')),
    );
    const output = [...written, ...logged].join('\n');
    expect(output).toContain(accepted.deliveryId);
    for (const { headers } of [accepted, refused]) {
      expect(output).not.toContain(headers['Merchant-Webhook-Signature'].slice('v1='.length));
      expect(output).not.toContain(headers['webhook-signature'].slice('v1,'.length));
    }
    expect(output).not.toContain('whsec_');
  });

  it('answers 413 to a body over 1 MB without verifying it', async () => {
    const secret = newSecret();
    await writeFile(join(dir, 'secrets'), `${secret}\n`);
    const hooks = await start();
    const delivery = signedDelivery(secret);

    expect(await post(hooks.url, { ...delivery, body: Buffer.alloc(1024 * 1024 + 1, 'a') })).toBe(413);
    expect(await receivedLines()).toEqual([
      { receivedAt: expect.any(String), id: null, type: null, verified: false, reason: 'body_too_large' },
    ]);
  });

  it('makes its own CA and localhost certificate when given no tls, and reuses them on the next start', async () => {
    const first = await start({ ownCa: true });
    const caCertPath = join(dir, LocalCaFiles.caCert);
    expect(first.caCertPath).toBe(caCertPath);
    const caCertPem = await readFile(caCertPath, 'utf8');
    const caCert = new X509Certificate(caCertPem);
    expect(caCert.ca).toBe(true);
    // Trusting that CA alone (not the suite's) is enough to reach it.
    const secret = newSecret();
    await writeFile(join(dir, 'secrets'), `${secret}\n`);
    expect(await post(first.url, signedDelivery(secret), caCertPem)).toBe(200);
    await first.close();

    const second = await start({ ownCa: true });
    expect(await readFile(caCertPath, 'utf8')).toBe(caCertPem);
    expect(await post(second.url, signedDelivery(secret), caCertPem)).toBe(200);
  });
});
