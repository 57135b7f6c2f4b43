import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalRuntime, startLocalRuntime } from '../../tools/local/runtime';
import { readLocalSettings } from '../../tools/local/settings';
import { testDynamoDbTarget } from '../support/dynamodb';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver';
import { createInvoice, expectOk, invoiceAction, invoiceBody } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { apiClient, newKey } from '../support/local-runtime';
import { type SpawnedProcess, spawnProcess } from '../support/spawned-process';
import { expectVerifiedDelivery } from '../support/webhook-checks';

const repoRoot = resolve(import.meta.dirname, '../..');
const fixture = join(repoRoot, 'test', 'support', 'runtime-process.ts');
/**
 * A short attempt timeout and lease margin keep the killed attempt's lease (timeout + margin, 23 s
 * as deployed) at 4 s: the restarted runtime still waits it out before sending the attempt again.
 */
const settings = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_LEASE_MARGIN_MS: '1000',
  WEBHOOK_RETRY_DELAY_SECONDS: '1',
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('killing the local runtime mid-delivery', () => {
  it('sends the attempt that was in flight again once its lease ends, with the same delivery id, and records it', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'merchant-payments-kill-'));
    cleanups.push(() => rm(stateDir, { recursive: true, force: true }));
    const tableName = `test-${randomUUID()}`;
    // The first request never gets an answer: the runtime is killed while it waits.
    const receiver: HttpsReceiver = await startHttpsReceiver({
      respondWith: () => (receiver.requests.length === 1 ? { status: 200, hang: true } : { status: 200 }),
    });
    cleanups.push(() => receiver.close());

    const killed: SpawnedProcess = spawnProcess(
      process.execPath,
      [
        '--import',
        'tsx',
        fixture,
        JSON.stringify({ stateDir, tableName, dynamodb: testDynamoDbTarget(), settings }),
      ],
      { cwd: repoRoot },
    );
    cleanups.push(() => killed.killAll());
    const baseUrl = (await killed.waitForOutput(/ready (\S+)/, 60_000))[1] as string;
    const info = JSON.parse(await readFile(join(stateDir, 'runtime.json'), 'utf8'));
    const api = apiClient(baseUrl, info.apiKey);
    const merchantId = info.merchantId as string;
    const endpoint = expectOk(
      await api('POST', `/merchants/${merchantId}/webhook-endpoints`, {
        body: { url: receiver.url(), eventTypes: ['invoices.InvoiceSent'] },
        idempotencyKey: newKey(),
      }),
    );
    const refs = await invoiceFixtures(api, merchantId);
    const draft = expectOk(await createInvoice(api, invoiceBody(merchantId, refs)));
    expectOk(await invoiceAction(api, merchantId, draft.invoiceId, 'issue'));
    await receiver.waitFor(1, 30_000);

    killed.child.kill('SIGKILL');
    expect((await killed.exited).signal).toBe('SIGKILL');

    const restarted: LocalRuntime = await startLocalRuntime({
      settings: readLocalSettings({ PORT: '0', ...settings }),
      inMemory: false,
      stateDir,
      dynamodb: testDynamoDbTarget(),
      tableName,
    });
    cleanups.push(() => restarted.stop());
    const [inFlight, again] = await receiver.waitFor(2, 60_000);
    const body = expectVerifiedDelivery(again as never, endpoint.signingSecret);
    expect(body.id).toBe(inFlight?.headers['webhook-id']);
    const restartedApi = apiClient(restarted.baseUrl, restarted.apiKey);
    const deliveriesPath = `/merchants/${merchantId}/webhook-endpoints/${endpoint.webhookEndpointId}/deliveries`;
    await expect
      .poll(async () => expectOk(await restartedApi('GET', deliveriesPath)).items[0]?.status, {
        timeout: 20_000,
        interval: 200,
      })
      .toBe('succeeded');
    const [delivery] = expectOk(await restartedApi('GET', deliveriesPath)).items;
    // The killed attempt was never recorded; the one that reached the receiver is.
    expect(delivery.attempts).toHaveLength(1);
    expect(receiver.requests).toHaveLength(2);
  }, 150_000);
});
