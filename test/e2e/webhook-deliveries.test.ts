import { describe, expect } from 'vitest';
import { e2eInvoiceFile, merchantId, refs, t, webhookSettings } from '../support/e2e-test';
import { waitForEndpointDeliveries } from '../support/endpoint-deliveries';
import { issueInvoice } from '../support/invoice-requests';
import { newKey } from '../support/local-runtime';
import { expectVerifiedDelivery, failsWithSecret } from '../support/webhook-checks';

const test = e2eInvoiceFile(webhookSettings);
// Every test subscribes its own endpoints; delete them so later events don't reach old receivers.
test.afterEach(({ endpoints }) => endpoints.deleteAll());

const issuedInvoice = () => issueInvoice(t.api, merchantId, refs);

const deliveriesOf = async (endpointId: string, query: Record<string, string | number> = {}) =>
  (await t.api('GET', `/merchants/${merchantId}/webhook-endpoints/${endpointId}/deliveries`, { query })).body;

/** Polls the deliveries list until `done` holds for it. */
const waitForDeliveries = (endpointId: string, done: (items: any[]) => boolean, timeoutMs = 15_000) =>
  waitForEndpointDeliveries(t.api, merchantId, endpointId, done, timeoutMs);

describe('webhook delivery through the local runtime', () => {
  test('delivers each event once to every subscribed endpoint, signed, and to no other', async ({
    receivers,
    endpoints,
  }) => {
    const both = await receivers.start();
    const paidOnly = await receivers.start();
    const a = await endpoints.subscribe(both.url(), ['invoices.InvoiceSent', 'invoices.InvoicePaid']);
    const b = await endpoints.subscribe(paidOnly.url(), ['invoices.InvoicePaid']);

    const invoice = await issuedInvoice();
    const [sent] = await both.waitFor(1);
    const body = expectVerifiedDelivery(sent as never, a.secret);
    expect(body.type).toBe('invoices.InvoiceSent');
    expect(body.data).toEqual({
      invoiceId: invoice.invoiceId,
      merchantId,
      customerId: refs.customerId,
      invoiceNumber: invoice.invoiceNumber,
      resend: false,
      occurredAt: expect.any(String),
    });
    expect(body.id).toMatch(/^whkdel_/);

    await t.api('POST', `/invoices/${invoice.invoiceId}/payments`, {
      body: { merchantId, amount: invoice.amountRemaining.amount },
      idempotencyKey: newKey(),
    });
    const [paidToB] = await paidOnly.waitFor(1);
    expect(expectVerifiedDelivery(paidToB as never, b.secret).type).toBe('invoices.InvoicePaid');
    const toA = await both.waitFor(2);
    expect(expectVerifiedDelivery(toA[1] as never, a.secret).type).toBe('invoices.InvoicePaid');

    // Nothing more arrives: one delivery per event and endpoint.
    await t.runtime.drainStream();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(both.requests).toHaveLength(2);
    expect(paidOnly.requests).toHaveLength(1);
    const listed = await waitForDeliveries(a.id, (items) =>
      items.every((item) => item.status === 'succeeded'),
    );
    expect(listed).toHaveLength(2);
    expect(listed[0].attempts[0]).toEqual({
      attemptNumber: 1,
      attemptedAt: expect.any(String),
      responseStatusCode: 200,
      durationMs: expect.any(Number),
      errorMessage: null,
    });
  });

  test('makes exactly 5 attempts spaced by the retry delay against a 500, then exhausts; redeliver makes a new delivery', async ({
    receivers,
    endpoints,
  }) => {
    const failing = await receivers.start();
    failing.respondWith(() => ({ status: 500, body: 'down' }));
    const endpoint = await endpoints.subscribe(failing.url(), ['invoices.InvoiceSent']);
    await issuedInvoice();

    const [exhausted] = await waitForDeliveries(
      endpoint.id,
      (items) => items[0]?.status === 'exhausted',
      30_000,
    );
    expect(exhausted.attemptCount).toBe(5);
    expect(exhausted.attempts.map((attempt: { attemptNumber: number }) => attempt.attemptNumber)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    for (const attempt of exhausted.attempts) {
      expect(attempt).toMatchObject({
        responseStatusCode: 500,
        errorMessage: expect.stringContaining('500'),
      });
    }
    const times = exhausted.attempts.map((attempt: { attemptedAt: string }) =>
      Date.parse(attempt.attemptedAt),
    );
    for (let index = 1; index < times.length; index += 1) {
      expect(times[index] - times[index - 1]).toBeGreaterThanOrEqual(1000);
    }
    expect(failing.requests).toHaveLength(5);

    failing.respondWith(() => ({ status: 200 }));
    const redelivered = await t.api(
      'POST',
      `/merchants/${merchantId}/webhook-endpoints/${endpoint.id}/deliveries/${exhausted.webhookDeliveryId}/redeliver`,
      { idempotencyKey: newKey() },
    );
    expect(redelivered.status).toBe(201);
    expect(redelivered.body).toMatchObject({
      redeliveredFromId: exhausted.webhookDeliveryId,
      status: 'pending',
      attemptCount: 0,
      attempts: [],
    });
    const items = await waitForDeliveries(endpoint.id, (all) =>
      all.some((item) => item.status === 'succeeded'),
    );
    const original = items.find((item) => item.webhookDeliveryId === exhausted.webhookDeliveryId);
    expect(original).toEqual(exhausted);
    const again = expectVerifiedDelivery(failing.requests[5] as never, endpoint.secret);
    expect(again.id).toBe(redelivered.body.webhookDeliveryId);
    const onlyExhausted = await deliveriesOf(endpoint.id, { status: 'exhausted' });
    expect(onlyExhausted.items.map((item: { webhookDeliveryId: string }) => item.webhookDeliveryId)).toEqual([
      exhausted.webhookDeliveryId,
    ]);
  }, 45_000);

  test('pages deliveries newest first with cursors bound to the endpoint and the status filter', async ({
    receivers,
    endpoints,
  }) => {
    const hooks = await receivers.start();
    const endpoint = await endpoints.subscribe(hooks.url(), ['invoices.InvoiceSent']);
    const other = await endpoints.subscribe(hooks.url(), ['invoices.InvoiceSent']);
    for (let index = 0; index < 3; index += 1) await issuedInvoice();
    await waitForDeliveries(
      endpoint.id,
      (items) => items.length === 3 && items.every((item) => item.status === 'succeeded'),
    );
    const path = (id: string) => `/merchants/${merchantId}/webhook-endpoints/${id}/deliveries`;
    const first = await t.api('GET', path(endpoint.id), { query: { limit: 2 } });
    expect(first.body.items).toHaveLength(2);
    expect(first.body.page.hasMore).toBe(true);
    const rest = await t.api('GET', path(endpoint.id), {
      query: { limit: 2, cursor: first.body.page.nextCursor },
    });
    expect(rest.body.items).toHaveLength(1);
    expect(rest.body.page).toEqual({ hasMore: false });
    const ids = [...first.body.items, ...rest.body.items].map((item) => item.webhookDeliveryId);
    expect(ids).toEqual([...ids].sort().reverse());
    const cursor = first.body.page.nextCursor;
    expect((await t.api('GET', path(other.id), { query: { cursor } })).status).toBe(400);
    expect((await t.api('GET', path(endpoint.id), { query: { cursor, status: 'succeeded' } })).status).toBe(
      400,
    );
    expect((await t.api('GET', path(endpoint.id), { query: { status: 'lost' } })).status).toBe(400);
    expect((await t.api('GET', path(endpoint.id), { query: { limit: 101 } })).status).toBe(400);
  });

  test('counts a 302 as a failed attempt and does not follow it', async ({ receivers, endpoints }) => {
    const target = await receivers.start();
    const redirecting = await receivers.start();
    redirecting.respondWith(() => ({ status: 302, headers: { location: target.url('/elsewhere') } }));
    const endpoint = await endpoints.subscribe(redirecting.url(), ['invoices.InvoiceSent']);
    await issuedInvoice();
    const [delivery] = await waitForDeliveries(endpoint.id, (items) => items[0]?.attemptCount >= 1);
    expect(delivery.attempts[0]).toMatchObject({
      responseStatusCode: 302,
      errorMessage: expect.stringContaining('302'),
    });
    expect(target.requests).toHaveLength(0);
  });

  test('signs with the new secret at once after a rotation', async ({ receivers, endpoints }) => {
    const hooks = await receivers.start();
    const endpoint = await endpoints.subscribe(hooks.url(), ['invoices.InvoiceSent']);
    const rotated = await t.api(
      'POST',
      `/merchants/${merchantId}/webhook-endpoints/${endpoint.id}/rotate-secret`,
      {
        idempotencyKey: newKey(),
      },
    );
    await issuedInvoice();
    const [request] = await hooks.waitFor(1);
    expectVerifiedDelivery(request as never, rotated.body.signingSecret);
    expect(failsWithSecret(request as never, endpoint.secret)).toBe(true);
  });

  test('holds deliveries while an endpoint is disabled and sends them when it is enabled again', async ({
    receivers,
    endpoints,
  }) => {
    const hooks = await receivers.start();
    const endpoint = await endpoints.subscribe(hooks.url(), ['invoices.InvoiceSent']);
    const path = `/merchants/${merchantId}/webhook-endpoints/${endpoint.id}`;
    await t.api('PATCH', path, { body: { status: 'disabled' }, idempotencyKey: newKey() });
    await issuedInvoice();
    const [paused] = await waitForDeliveries(endpoint.id, (items) => items.length === 1);
    await t.runtime.drainStream();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(paused).toMatchObject({ status: 'pending', attemptCount: 0 });
    expect(hooks.requests).toHaveLength(0);

    await t.api('PATCH', path, { body: { status: 'active' }, idempotencyKey: newKey() });
    const [request] = await hooks.waitFor(1);
    expect(expectVerifiedDelivery(request as never, endpoint.secret).id).toBe(paused.webhookDeliveryId);
  });

  test('redelivers only under the live endpoint of the caller: 404 for an unknown delivery, another merchant and a deleted endpoint', async ({
    receivers,
    endpoints,
  }) => {
    const hooks = await receivers.start();
    const endpoint = await endpoints.subscribe(hooks.url(), ['invoices.InvoiceSent']);
    const neighbour = await endpoints.subscribe(hooks.url(), ['invoices.InvoiceSent']);
    await issuedInvoice();
    const [delivered] = await waitForDeliveries(endpoint.id, (items) => items[0]?.status === 'succeeded');
    const redeliver = (api: typeof t.api, owner: string, endpointId: string, deliveryId: string) =>
      api('POST', `/merchants/${owner}/webhook-endpoints/${endpointId}/deliveries/${deliveryId}/redeliver`, {
        idempotencyKey: newKey(),
      });
    const notFound = (result: { status: number; body: any }, message: string) => {
      expect(result.status).toBe(404);
      expect(result.body.error).toMatchObject({ code: 'not_found', message });
    };
    const deliveryMissing = 'The webhook delivery does not exist.';
    const endpointMissing = 'The webhook endpoint does not exist.';

    notFound(
      await redeliver(t.api, merchantId, endpoint.id, 'whkdel_01h455vb4pex5vsknk084sn02q'),
      deliveryMissing,
    );
    // A delivery exists only under its own endpoint, even among the caller's endpoints.
    notFound(await redeliver(t.api, merchantId, neighbour.id, delivered.webhookDeliveryId), deliveryMissing);
    const other = await t.anotherMerchant();
    notFound(
      await redeliver(other.api, other.merchantId, endpoint.id, delivered.webhookDeliveryId),
      endpointMissing,
    );
    await t.api('DELETE', `/merchants/${merchantId}/webhook-endpoints/${endpoint.id}`, {
      idempotencyKey: newKey(),
    });
    notFound(await redeliver(t.api, merchantId, endpoint.id, delivered.webhookDeliveryId), endpointMissing);
    expect((await deliveriesOf(neighbour.id)).items).toHaveLength(1);
  });

  test('stops all attempts once the endpoint is deleted', async ({ receivers, endpoints }) => {
    const failing = await receivers.start();
    failing.respondWith(() => ({ status: 503 }));
    const endpoint = await endpoints.subscribe(failing.url(), ['invoices.InvoiceSent']);
    await issuedInvoice();
    await failing.waitFor(1);
    await t.api('DELETE', `/merchants/${merchantId}/webhook-endpoints/${endpoint.id}`, {
      idempotencyKey: newKey(),
    });
    const attemptsAtDelete = failing.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(failing.requests.length).toBeLessThanOrEqual(attemptsAtDelete + 1);
    const gone = await t.api('GET', `/merchants/${merchantId}/webhook-endpoints/${endpoint.id}/deliveries`);
    expect(gone.status).toBe(404);
  });
});
