import { X509Certificate } from 'node:crypto';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../tools/webhook-receiver/webhook-receiver';
import { webhookReceiverDirIn } from '../../tools/webhook-receiver/webhook-receiver-dir';
import { e2eFile, merchantId, t } from '../support/e2e-test';
import { newKey } from '../support/local-runtime';
import { captureChildOutput } from '../support/log-capture-run-log';
import { receivedDeliveries } from '../support/received-deliveries';
import { type SpawnedProcess, spawnProcess } from '../support/spawned-process';

// `npm start` as it is: no setting of the webhooks' (docs/decisions/local-webhooks-without-a-restart.md).
e2eFile();

const repoRoot = resolve(import.meta.dirname, '..', '..');
const receivers: WebhookReceiver[] = [];
const spawned: SpawnedProcess[] = [];
const folders: string[] = [];
afterAll(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
  for (const child of spawned.splice(0)) {
    child.killAll();
    await child.exited;
  }
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** `npm run webhook-receiver` in `dir`, started now, after the runtime, with a CA of its own made now. */
async function startReceiverIn(dir: string): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver({ port: 0, dir, log: () => undefined });
  receivers.push(receiver);
  return receiver;
}

/** The test workers trust the suite's CA through NODE_EXTRA_CA_CERTS (test/global-setup.ts), not this one. */
async function expectNotTrustedByTheWorkers(receiver: WebhookReceiver): Promise<void> {
  const ca = new X509Certificate(await readFile(receiver.caCertPath ?? '', 'utf8'));
  const trusted = await readFile(process.env.NODE_EXTRA_CA_CERTS ?? '', 'utf8');
  const trustedCas = trusted.split(/(?<=-----END CERTIFICATE-----)\s*/).filter((pem) => pem.trim() !== '');
  expect(trustedCas.length).toBeGreaterThan(0);
  for (const pem of trustedCas) expect(new X509Certificate(pem).fingerprint256).not.toBe(ca.fingerprint256);
}

async function temporaryFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/** `npm run webhook-receiver` as a developer types it, with `env` added. */
function npmReceiver(env: Record<string, string>): SpawnedProcess {
  const started = spawnProcess('npm', ['run', 'webhook-receiver'], {
    cwd: repoRoot,
    env: { ...process.env, RECEIVER_PORT: '0', ...env },
  });
  spawned.push(started);
  // What the scripts print is service output too: the run log's scan reads it (log-scan.test.ts).
  captureChildOutput(started.child, 'npm run webhook-receiver', import.meta.filename);
  return started;
}

const endpoints = () => `/merchants/${merchantId}/webhook-endpoints`;

/** Registers `url` as the guides do; returns the endpoint's id and signing secret. */
async function register(url: string): Promise<{ endpointId: string; secret: string }> {
  const created = await t.api('POST', endpoints(), {
    body: { url, eventTypes: ['invoices.InvoicePaid'] },
    idempotencyKey: newKey(),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { endpointId: created.body.webhookEndpointId, secret: created.body.signingSecret };
}

/** Sends the endpoint a test delivery; returns its id. */
async function sendTest(endpointId: string): Promise<string> {
  const sent = await t.api('POST', `${endpoints()}/${endpointId}/test`, {
    body: { eventType: 'invoices.InvoicePaid' },
    idempotencyKey: newKey(),
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return sent.body.webhookDeliveryId;
}

/** The delivery once its first attempt is recorded (30 s at most). */
async function firstAttempt(endpointId: string, deliveryId: string): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const page = await t.api('GET', `${endpoints()}/${endpointId}/deliveries`, { query: { limit: 100 } });
    const found = page.body.items.find((item: any) => item.webhookDeliveryId === deliveryId);
    if (found?.attempts.length > 0) return found;
    if (Date.now() > deadline)
      throw new Error(`delivery ${deliveryId} was not attempted: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the local runtime with no webhook settings', () => {
  it('delivers to the receiver started after it in its state folder, trusting the CA it reads there', async () => {
    const dir = webhookReceiverDirIn(t.stateDir);
    const receiver = await startReceiverIn(dir);
    await expectNotTrustedByTheWorkers(receiver);

    const { endpointId, secret } = await register(`${receiver.url}/webhooks`);
    await appendFile(join(dir, 'secrets'), `${secret}\n`);
    const deliveryId = await sendTest(endpointId);

    const delivery = await firstAttempt(endpointId, deliveryId);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: [expect.objectContaining({ responseStatusCode: 200, errorMessage: null })],
    });
    expect(await receivedDeliveries(dir)).toContainEqual(
      expect.objectContaining({ id: deliveryId, type: 'invoices.InvoicePaid', verified: true }),
    );
  });

  it('fails on the certificate of a receiver whose CA is outside its state folder', async () => {
    const elsewhere = await temporaryFolder('merchant-payments-other-receiver-');
    const receiver = await startReceiverIn(elsewhere);
    await expectNotTrustedByTheWorkers(receiver);

    const { endpointId } = await register(`${receiver.url}/webhooks`);
    const deliveryId = await sendTest(endpointId);

    const delivery = await firstAttempt(endpointId, deliveryId);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts).toEqual([
      expect.objectContaining({
        responseStatusCode: null,
        errorMessage: expect.stringMatching(/^TLS certificate not accepted \(/),
      }),
    ]);
  });
});

describe('npm run webhook-receiver', () => {
  it("keeps its CA in the runtime's state folder and says npm start trusts it; elsewhere, how to start it", async () => {
    const stateDir = await temporaryFolder('merchant-payments-receiver-state-');
    const inState = npmReceiver({ LOCAL_STATE_DIR: stateDir });
    const elsewhere = await temporaryFolder('merchant-payments-receiver-dir-');
    const outside = npmReceiver({ LOCAL_STATE_DIR: stateDir, RECEIVER_DIR: elsewhere });

    await inState.waitForOutput(/npm start trusts its certificate/, 30_000);
    expect(inState.output()).not.toContain('NODE_EXTRA_CA_CERTS');
    expect(inState.output()).not.toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS');
    const ca = await readFile(join(webhookReceiverDirIn(stateDir), 'ca.crt'), 'utf8');
    expect(new X509Certificate(ca).ca).toBe(true);

    const [, caPath] = await outside.waitForOutput(/\n {2}NODE_EXTRA_CA_CERTS=(\S+) npm start\n/, 30_000);
    expect(caPath).toBe(join(elsewhere, 'ca.crt'));
  }, 60_000);
});
