import { describe, expect, it } from 'vitest';
import { simulatedFailureMessage } from '../../functions/domain/simulated-failures';
import { e2eTest, webhookSettings } from '../support/e2e-test';
import { waitForEndpointDeliveries } from '../support/endpoint-deliveries';
import type { HttpsReceiver } from '../support/https-receiver';
import { invoiceFixtures } from '../support/invoices';
import { newKey, type TestRuntime } from '../support/local-runtime';
import { expectVerifiedDelivery } from '../support/webhook-checks';

const sandboxOnly = 'must be left out: it is accepted only in the sandbox.';

/** Two runtimes, each started by the describe block that uses it. */
const inSandbox = e2eTest(webhookSettings);
const inProduction = e2eTest({ STAGE: 'production' });

describe('sandbox failure simulation, end to end', () => {
  let t: TestRuntime, merchantId: string, receiver: HttpsReceiver;

  inSandbox.beforeAll(({ t: runtime, receiver: started }) => {
    [t, merchantId, receiver] = [runtime, runtime.merchantId, started];
  });

  const endpoints = () => `/merchants/${merchantId}/webhook-endpoints`;
  const waitForDeliveries = (endpointId: string, done: (items: any[]) => boolean) =>
    waitForEndpointDeliveries(t.api, merchantId, endpointId, done);

  it('fails 5 attempts without a request, exhausting the delivery; a redelivery then reaches the receiver', async () => {
    const created = await t.api('POST', endpoints(), {
      body: { url: receiver.url(), eventTypes: ['invoices.InvoiceSent'] },
      idempotencyKey: newKey(),
    });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('simulateFailures');
    const endpointId = created.body.webhookEndpointId as string;
    const signingSecret = created.body.signingSecret as string;

    const updated = await t.api('PATCH', `${endpoints()}/${endpointId}`, {
      body: { simulateFailures: 5 },
      idempotencyKey: newKey(),
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ webhookEndpointId: endpointId, simulateFailures: 5 });
    const listed = await t.api('GET', endpoints());
    expect(listed.body.items).toEqual([
      expect.objectContaining({ webhookEndpointId: endpointId, simulateFailures: 5 }),
    ]);

    const refs = await invoiceFixtures(t.api, merchantId);
    const draft = await t.api('POST', '/invoices', {
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
    const issued = await t.api('POST', `/invoices/${draft.body.invoiceId}/issue`, {
      body: { merchantId },
      idempotencyKey: newKey(),
    });
    expect(issued.status).toBe(200);

    const [exhausted] = await waitForDeliveries(endpointId, (items) => items[0]?.status === 'exhausted');
    expect(exhausted.attemptCount).toBe(5);
    expect(exhausted.attempts.map((attempt: any) => [attempt.attemptNumber, attempt.errorMessage])).toEqual(
      [4, 3, 2, 1, 0].map((remaining, index) => [index + 1, simulatedFailureMessage(remaining)]),
    );
    for (const attempt of exhausted.attempts) {
      expect(attempt.responseStatusCode).toBeNull();
      expect(attempt.durationMs).toBeLessThan(1000);
    }
    expect(receiver.requests).toHaveLength(0);
    const spent = await t.api('GET', endpoints());
    expect(spent.body.items[0]).not.toHaveProperty('simulateFailures');

    const redelivered = await t.api(
      'POST',
      `${endpoints()}/${endpointId}/deliveries/${exhausted.webhookDeliveryId}/redeliver`,
      { idempotencyKey: newKey() },
    );
    expect(redelivered.status).toBe(201);
    const [request] = await receiver.waitFor(1, 20_000);
    if (request === undefined) throw new Error('no request received');
    expectVerifiedDelivery(request, signingSecret);
    const items = await waitForDeliveries(endpointId, (all) =>
      all.some((item) => item.status === 'succeeded'),
    );
    const succeeded = items.find((item) => item.webhookDeliveryId === redelivered.body.webhookDeliveryId);
    expect(succeeded).toMatchObject({
      status: 'succeeded',
      attemptCount: 1,
      redeliveredFromId: exhausted.webhookDeliveryId,
    });
    expect(succeeded.attempts[0]).toMatchObject({ responseStatusCode: 200, errorMessage: null });
    expect(receiver.requests).toHaveLength(1);
  }, 60_000);

  it('clears a pending simulation with 0, and then shows no count', async () => {
    const created = await t.api('POST', endpoints(), {
      body: { url: receiver.url('/cleared'), eventTypes: ['invoices.InvoicePaid'] },
      idempotencyKey: newKey(),
    });
    const path = `${endpoints()}/${created.body.webhookEndpointId}`;
    const set = await t.api('PATCH', path, { body: { simulateFailures: 3 }, idempotencyKey: newKey() });
    expect(set.body.simulateFailures).toBe(3);
    const cleared = await t.api('PATCH', path, { body: { simulateFailures: 0 }, idempotencyKey: newKey() });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('simulateFailures');
  });
});

describe('sandbox failure simulation in production', () => {
  let production: TestRuntime;

  inProduction.beforeAll(({ t }) => {
    production = t;
  });

  it('refuses simulateFailures with 400 validation_error and leaves the endpoint unchanged', async () => {
    const endpoints = `/merchants/${production.runtime.merchantId}/webhook-endpoints`;
    const created = await production.api('POST', endpoints, {
      body: { url: 'https://hooks.example.com/orders', eventTypes: ['invoices.InvoicePaid'] },
      idempotencyKey: newKey(),
    });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('simulateFailures');
    const { signingSecret: _secret, ...before } = created.body;

    for (const simulateFailures of [5, 0]) {
      const refused = await production.api('PATCH', `${endpoints}/${before.webhookEndpointId}`, {
        body: { simulateFailures, name: 'Renamed' },
        idempotencyKey: newKey(),
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 'validation_error',
        details: [{ path: 'simulateFailures', message: sandboxOnly }],
      });
    }
    const listed = await production.api('GET', endpoints);
    expect(listed.body.items).toEqual([before]);
  });
});
