import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver';
import { invoiceFixtures } from '../support/invoices';
import { newKey, startTestRuntime, type TestRuntime } from '../support/local-runtime';

let t: TestRuntime;
let hanging: HttpsReceiver;

beforeAll(async () => {
  // The documented 10 s response timeout, as deployed (WEBHOOK_TIMEOUT_MS keeps its default).
  t = await startTestRuntime({ WEBHOOK_ALLOW_PRIVATE_TARGETS: true });
  hanging = await startHttpsReceiver({ respondWith: () => ({ status: 200, hang: true }) });
});
afterAll(async () => {
  await hanging.close();
  await t.stop();
});

describe('webhook response timeout', () => {
  it('counts a receiver that hangs past 10 s as a failed attempt with no status code', async () => {
    const merchantId = t.runtime.merchantId;
    const endpoint = await t.api('POST', `/merchants/${merchantId}/webhook-endpoints`, {
      body: { url: hanging.url(), eventTypes: ['invoices.InvoiceSent'] },
      idempotencyKey: newKey(),
    });
    const refs = await invoiceFixtures(t.api, merchantId);
    const invoice = await t.api('POST', '/invoices', {
      body: {
        merchantId,
        customerId: refs.customerId,
        currency: 'USD',
        lineItems: [
          { kind: 'product_charge', productId: refs.productId, priceId: refs.priceId, quantity: 1 },
        ],
      },
      idempotencyKey: newKey(),
    });
    await t.api('POST', `/invoices/${invoice.body.invoiceId}/issue`, {
      body: { merchantId },
      idempotencyKey: newKey(),
    });
    const path = `/merchants/${merchantId}/webhook-endpoints/${endpoint.body.webhookEndpointId}/deliveries`;
    let attempt: any;
    await expect
      .poll(
        async () => {
          attempt = (await t.api('GET', path)).body.items[0]?.attempts[0];
          return attempt !== undefined;
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe(true);
    expect(hanging.requests).toHaveLength(1);
    expect(attempt).toMatchObject({
      attemptNumber: 1,
      responseStatusCode: null,
      errorMessage: 'Timed out after 10000 ms',
    });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(10_000);
    expect(attempt.durationMs).toBeLessThan(12_000);
  }, 30_000);
});
