import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalRuntime, startLocalRuntime } from '../../tools/local/runtime';
import { readLocalSettings } from '../../tools/local/settings';
import { testDynamoDbTarget } from '../support/dynamodb';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver';
import { createInvoice, expectOk, invoiceAction, invoiceBody } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { type ApiClient, apiClient, newKey } from '../support/local-runtime';
import { expectVerifiedDelivery } from '../support/webhook-checks';

const running = new Set<LocalRuntime>();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const runtime of running) await stopRuntime(runtime);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function stopRuntime(runtime: LocalRuntime): Promise<void> {
  running.delete(runtime);
  await runtime.stop();
}

/**
 * A runtime on persisted state: `stateDir` keeps runtime.json (merchant and key) and the secrets
 * key, and the table outlives the runtime in the suite's DynamoDB Local, as `npm start` keeps both.
 */
async function startPersisted(
  stateDir: string,
  tableName: string,
  retryDelaySeconds: number,
): Promise<LocalRuntime> {
  const runtime = await startLocalRuntime({
    settings: readLocalSettings({
      PORT: '0',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      WEBHOOK_RETRY_DELAY_SECONDS: String(retryDelaySeconds),
    }),
    inMemory: false,
    stateDir,
    dynamodb: testDynamoDbTarget(),
    tableName,
  });
  running.add(runtime);
  return runtime;
}

async function issueInvoice(api: ApiClient, merchantId: string): Promise<void> {
  const refs = await invoiceFixtures(api, merchantId);
  const draft = expectOk(await createInvoice(api, invoiceBody(merchantId, refs)));
  expectOk(await invoiceAction(api, merchantId, draft.invoiceId, 'issue'));
}

async function onlyDelivery(api: ApiClient, merchantId: string, endpointId: string) {
  const listed = await api('GET', `/merchants/${merchantId}/webhook-endpoints/${endpointId}/deliveries`);
  expect(listed.body.items).toHaveLength(1);
  return listed.body.items[0];
}

describe('restarting the local runtime', () => {
  it('sends a retry that is overdue at start within 5 s of being ready, counted with the new retry delay', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'merchant-payments-restart-'));
    cleanups.push(() => rm(stateDir, { recursive: true, force: true }));
    const tableName = `test-${randomUUID()}`;
    const receiver: HttpsReceiver = await startHttpsReceiver({
      respondWith: () => ({ status: receiver.requests.length === 1 ? 503 : 200 }),
    });
    cleanups.push(() => receiver.close());

    // 900 s between attempts: the retry cannot come before this runtime stops.
    const first = await startPersisted(stateDir, tableName, 900);
    const firstApi = apiClient(first.baseUrl, first.apiKey);
    const endpoint = await firstApi('POST', `/merchants/${first.merchantId}/webhook-endpoints`, {
      body: { url: receiver.url(), eventTypes: ['invoices.InvoiceSent'] },
      idempotencyKey: newKey(),
    });
    expect(endpoint.status).toBe(201);
    const endpointId = endpoint.body.webhookEndpointId as string;
    await issueInvoice(firstApi, first.merchantId);
    await receiver.waitFor(1, 15_000);
    await expect
      .poll(async () => (await onlyDelivery(firstApi, first.merchantId, endpointId)).attempts.length, {
        timeout: 15_000,
        interval: 100,
      })
      .toBe(1);
    await stopRuntime(first);

    // The stored due time is 900 s away; with 1 s the retry was due before this start.
    const second = await startPersisted(stateDir, tableName, 1);
    const readyAt = Date.now();

    const [failed, retried] = await receiver.waitFor(2, 5_000);
    expect((retried?.receivedAt ?? Number.POSITIVE_INFINITY) - readyAt).toBeLessThanOrEqual(5_000);
    expect(second.merchantId).toBe(first.merchantId);
    const sentBody = expectVerifiedDelivery(retried as never, endpoint.body.signingSecret);
    expect(sentBody.id).toBe(failed?.headers['webhook-id']);
    const secondApi = apiClient(second.baseUrl, second.apiKey);
    await expect
      .poll(async () => (await onlyDelivery(secondApi, second.merchantId, endpointId)).status, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe('succeeded');
    expect(receiver.requests).toHaveLength(2);
  }, 90_000);
});
