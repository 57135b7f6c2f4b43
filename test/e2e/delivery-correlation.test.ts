import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eTest, webhookSettings } from '../support/e2e-test';
import type { HttpsReceiver } from '../support/https-receiver';
import { createInvoice, invoiceBody, productLine } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { newKey, type TestRuntime } from '../support/local-runtime';
import { capturePrintedJsonLines, type PrintedLinesCapture } from '../support/printed-json-lines';
import { expectVerifiedDelivery } from '../support/webhook-checks';

const test = e2eTest(webhookSettings);
let t: TestRuntime;
let receiver: HttpsReceiver;
let capture: PrintedLinesCapture;

// The runtime runs the pipeline in this process, so its log lines are printed here; the capture
// starts before the fixture starts the runtime.
beforeAll(() => {
  capture = capturePrintedJsonLines();
});
test.beforeAll(({ t: runtime, receiver: started }) => {
  [t, receiver] = [runtime, started];
  // Fails the first attempt, accepts every later one.
  receiver.respondWith(() =>
    receiver.requests.length === 1 ? { status: 500 } : { status: 200, body: 'ok' },
  );
});
afterAll(() => capture.stop());

const linesWith = (message: string, fields: Record<string, unknown>) =>
  capture
    .lines()
    .filter((line) => line.message === message && Object.entries(fields).every(([k, v]) => line[k] === v));

describe('correlated logs of one delivery', () => {
  it('lead from the API request that emitted an event to the last attempt of its delivery', async () => {
    const merchantId = t.runtime.merchantId;
    const refs = await invoiceFixtures(t.api, merchantId);
    const subscribed = await t.api('POST', `/merchants/${merchantId}/webhook-endpoints`, {
      body: { url: receiver.url(), eventTypes: ['invoices.InvoiceSent'] },
      idempotencyKey: newKey(),
    });
    expect(subscribed.status).toBe(201);
    const endpointId: string = subscribed.body.webhookEndpointId;
    const created = await createInvoice(
      t.api,
      invoiceBody(merchantId, refs, { lineItems: [productLine(refs)] }),
    );

    const issued = await t.api('POST', `/invoices/${created.body.invoiceId}/issue`, {
      body: { merchantId },
      idempotencyKey: newKey(),
    });
    expect(issued.status).toBe(200);
    const requestId = issued.headers.get('Request-Id') ?? '';

    // 1. The API request's access line names its request id.
    expect(linesWith('request handled', { requestId })).toEqual([
      expect.objectContaining({ level: 'INFO', operationId: 'issueInvoice', status: 200 }),
    ]);
    // 2. The router's line for the event that request wrote names the same request id.
    await expect.poll(() => linesWith('event routed', { requestId }).length, { timeout: 10_000 }).toBe(1);
    const [routed] = linesWith('event routed', { requestId });
    expect(routed).toMatchObject({ level: 'INFO', eventType: 'invoices.InvoiceSent', merchantId });
    const eventId = routed?.eventId as string;
    expect(routed?.deliveryIds).toEqual([expect.stringMatching(/^whkdel_/)]);
    const deliveryId = ((routed?.deliveryIds ?? []) as string[])[0] as string;
    // 3. The dispatcher's attempt lines for that delivery, ending in the attempt that succeeded.
    await expect
      .poll(() => linesWith('delivery attempted', { deliveryId }).length, { timeout: 15_000 })
      .toBe(2);
    const ofDelivery = { deliveryId, eventId, endpointId, merchantId, exhausted: false };
    expect(linesWith('delivery attempted', { deliveryId })).toEqual([
      expect.objectContaining({ ...ofDelivery, attempt: 1, outcome: 'failed', statusCode: 500 }),
      expect.objectContaining({ ...ofDelivery, attempt: 2, outcome: 'succeeded', statusCode: 200 }),
    ]);

    // The request id stays in the logs: not in what the endpoint receives, nor in what the API shows.
    expect(receiver.requests).toHaveLength(2);
    const delivered = expectVerifiedDelivery(receiver.requests[1] as never, subscribed.body.signingSecret);
    expect(delivered.id).toBe(deliveryId);
    for (const request of receiver.requests) {
      expect(request.rawBody.toString()).not.toContain(requestId);
      expect(JSON.stringify(request.headers)).not.toContain(requestId);
    }
    const listed = await t.api('GET', `/merchants/${merchantId}/webhook-endpoints/${endpointId}/deliveries`);
    expect(JSON.stringify(listed.body)).not.toContain(requestId);
    const deliveryItems = (await t.scanTable()).filter((item) => item.webhookDeliveryId === deliveryId);
    expect(deliveryItems.length).toBeGreaterThan(0);
    expect(JSON.stringify(deliveryItems)).not.toContain(requestId);
  });

  it('name the request id on the authorizer’s refusal too', async () => {
    const refused = await t.api('GET', '/customers', {
      query: { merchantId: t.runtime.merchantId },
      authorization: 'Bearer merchant_sbx0000000000_not-a-key',
    });
    expect(refused.status).toBe(401);
    const requestId = refused.headers.get('Request-Id') ?? '';
    expect(requestId).not.toBe('');
    expect(linesWith('request refused by authorizer', { requestId })).toEqual([
      expect.objectContaining({ level: 'INFO' }),
    ]);
  });
});
