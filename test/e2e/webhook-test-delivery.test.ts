import { describe, expect, it } from 'vitest';
import { type Endpoints, e2eFile, merchantId, t, webhookSettings } from '../support/e2e-test';
import type { HttpsReceiver } from '../support/https-receiver';
import { newKey } from '../support/local-runtime';
import { eventPayloadFields } from '../support/spec-fields';
import { expectVerifiedDelivery } from '../support/webhook-checks';

const test = e2eFile(webhookSettings);
let receiver: HttpsReceiver, subscriptions: Endpoints;

test.beforeAll(({ receiver: started, endpoints: made }) => {
  [receiver, subscriptions] = [started, made];
}, 180_000);

const endpoints = () => `/merchants/${merchantId}/webhook-endpoints`;

let destinations = 0;

/** A path no other endpoint of the file has used: a destination of its own. */
function freshPath(prefix: string): string {
  destinations += 1;
  return `/test-deliveries/${prefix}-${destinations}`;
}

/**
 * An endpoint subscribed to InvoiceSent only: a test delivery of another type still goes to it. Each
 * at a path of its own, since the quota counts per destination; `path` names one to share.
 */
const subscribe = (path = freshPath('endpoint')) =>
  subscriptions.subscribe(receiver.url(path), ['invoices.InvoiceSent']);

function sendTest(endpointId: string, eventType: string, idempotencyKey = newKey()) {
  return t.api('POST', `${endpoints()}/${endpointId}/test`, { body: { eventType }, idempotencyKey });
}

/** Polls the endpoint's deliveries until `id` has settled (30 s at most). */
async function settled(endpointId: string, id: string): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const page = await t.api('GET', `${endpoints()}/${endpointId}/deliveries`, { query: { limit: 100 } });
    expect(page.status).toBe(200);
    const found = page.body.items.find((item: any) => item.webhookDeliveryId === id);
    if (found !== undefined && found.status !== 'pending') return found;
    if (Date.now() > deadline) throw new Error(`delivery ${id} did not settle: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('POST …/webhook-endpoints/{id}/test', () => {
  it('sends signed sample data marked as a test, retries it after a 500, and lists it with its sequence', async () => {
    const endpoint = await subscribe();
    receiver.clear();
    // The receiver's requests include the one being answered: the first attempt gets a 500.
    receiver.respondWith(() =>
      receiver.requests.length <= 1 ? { status: 500, body: 'not yet' } : { status: 200 },
    );

    const created = await sendTest(endpoint.id, 'payments.PaymentCreated');
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const delivery = created.body;
    expect(delivery).toMatchObject({
      webhookEndpointId: endpoint.id,
      eventType: 'payments.PaymentCreated',
      sequence: 1,
      objectVersion: null,
      status: 'pending',
      attemptCount: 0,
      redeliveredFromId: null,
      attempts: [],
      test: true,
    });
    expect(delivery.eventId).toMatch(/^evt_/);

    const [first, second] = await receiver.waitFor(2, 30_000);
    for (const request of [first, second]) {
      if (request === undefined) throw new Error('missing request');
      const body = expectVerifiedDelivery(request, endpoint.secret);
      expect(body).toMatchObject({ id: delivery.webhookDeliveryId, type: 'payments.PaymentCreated' });
      expect(Object.keys(body.data).sort()).toEqual(eventPayloadFields['payments.PaymentCreated']);
      expect(body.data.merchantId).toBe(merchantId);
      expect(request.headers['merchant-webhook-test']).toBe('true');
      expect(request.headers['merchant-webhook-sequence']).toBe('1');
      expect(request.headers['merchant-webhook-event-id']).toBe(delivery.eventId);
      expect(request.headers).not.toHaveProperty('merchant-webhook-object-version');
    }
    // Retried as it was: the same body, signed afresh.
    expect(second?.rawBody.toString('utf8')).toBe(first?.rawBody.toString('utf8'));

    const listed = await settled(endpoint.id, delivery.webhookDeliveryId);
    expect(listed).toMatchObject({ status: 'succeeded', attemptCount: 2, sequence: 1, test: true });
    expect(listed.attempts.map((attempt: any) => attempt.responseStatusCode)).toEqual([500, 200]);

    // The event is made up: it is in no event log.
    const event = await t.api('GET', `/events/${delivery.eventId}`, { query: { merchantId } });
    expect(event.status).toBe(404);
    const eventDeliveries = await t.api('GET', `/events/${delivery.eventId}/deliveries`, {
      query: { merchantId },
    });
    expect(eventDeliveries.status).toBe(404);

    // The next delivery to the endpoint takes the next number; a replay answers the same delivery.
    const key = newKey();
    const next = await sendTest(endpoint.id, 'invoices.InvoicePaid', key);
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ sequence: 2, test: true, eventType: 'invoices.InvoicePaid' });
    const replay = await sendTest(endpoint.id, 'invoices.InvoicePaid', key);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(next.body);
    await settled(endpoint.id, next.body.webhookDeliveryId);
    const page = await t.api('GET', `${endpoints()}/${endpoint.id}/deliveries`, { query: { limit: 100 } });
    expect(page.body.items.map((item: any) => item.sequence)).toEqual([2, 1]);
  }, 60_000);

  it('refuses a disabled endpoint with 409 invalid_state and a deleted one with 404', async () => {
    receiver.respondWith(() => ({ status: 200 }));
    const endpoint = await subscribe();
    const path = `${endpoints()}/${endpoint.id}`;
    const disabled = await t.api('PATCH', path, { body: { status: 'disabled' }, idempotencyKey: newKey() });
    expect(disabled.status).toBe(200);
    const refused = await sendTest(endpoint.id, 'payouts.PayoutCreated');
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('invalid_state');

    expect((await t.api('DELETE', path, { idempotencyKey: newKey() })).status).toBe(200);
    const gone = await sendTest(endpoint.id, 'payouts.PayoutCreated');
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
    const page = await t.api('GET', `${path}/deliveries`, { query: { limit: 100 } });
    expect(page.status).toBe(404);
  });
});

describe('the test-delivery quota of an endpoint', () => {
  it('takes exactly 30 an hour however they race, then answers 429 with Retry-After and writes nothing', async () => {
    const path = freshPath('race');
    const endpoint = await subscribe(path);
    const statuses: number[] = [];
    // Rounds of 8 at once: each round's requests race for the same sequence number and quota.
    for (let round = 0; round < 5; round += 1) {
      const results = await Promise.all(
        Array.from({ length: 8 }, () => sendTest(endpoint.id, 'payments.PaymentCreated')),
      );
      for (const result of results) {
        expect([201, 429], JSON.stringify(result.body)).toContain(result.status);
        statuses.push(result.status);
      }
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    const before = await t.scanTable();

    const refused = await sendTest(endpoint.id, 'invoices.InvoicePaid');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', requestId: expect.any(String) });
    expect(refused.body.error.message).toBe(
      "This webhook endpoint's url has had 30 test deliveries within the last hour, its most; try again later.",
    );
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Nothing written: the table is as it was, but for what the accepted deliveries' attempts changed.
    const after = await t.scanTable();
    const idempotencyRecords = (items: Record<string, unknown>[]) =>
      items.filter((item) => item.entityType === 'IdempotencyRecord').length;
    expect(idempotencyRecords(after)).toBe(idempotencyRecords(before));
    const testDeliveries = (items: Record<string, unknown>[]) =>
      items.filter((item) => item.entityType === 'WebhookDelivery' && item.webhookEndpointId === endpoint.id);
    expect(testDeliveries(after)).toHaveLength(30);
    const sequences = (items: Record<string, unknown>[]) =>
      items.filter(
        (item) => item.entityType === 'WebhookDeliverySequence' && item.webhookEndpointId === endpoint.id,
      );
    expect(sequences(after)).toEqual(sequences(before));
    expect(sequences(after)[0]?.lastSequence).toBe(30);

    // Each destination has its own quota; another endpoint at the same one shares it.
    const other = await subscribe();
    expect((await sendTest(other.id, 'invoices.InvoicePaid')).status).toBe(201);
    const samePlace = await subscribe(`${path}/`);
    expect((await sendTest(samePlace.id, 'invoices.InvoicePaid')).status).toBe(429);
  }, 120_000);

  it('keeps counting across deleting the endpoint and creating it again at the same url', async () => {
    const path = freshPath('cycles');
    const accepted: number[] = [];
    // Four cycles of create → 32 tests → delete, as a merchant dodging the quota would run them.
    for (let cycle = 0; cycle < 4; cycle += 1) {
      const endpoint = await subscribe(path);
      for (let test = 0; test < 32; test += 1) {
        const result = await sendTest(endpoint.id, 'invoices.InvoiceSent');
        expect([201, 429], JSON.stringify(result.body)).toContain(result.status);
        if (result.status === 201) accepted.push(cycle);
      }
      const deleted = await t.api('DELETE', `${endpoints()}/${endpoint.id}`, { idempotencyKey: newKey() });
      expect(deleted.status).toBe(200);
    }
    expect(accepted).toHaveLength(30);
    expect(accepted.every((cycle) => cycle === 0)).toBe(true);
  }, 180_000);

  it('replays an earlier success of the same key rather than refusing it once the quota is spent', async () => {
    const endpoint = await subscribe();
    const key = newKey();
    const first = await sendTest(endpoint.id, 'invoices.InvoiceSent', key);
    expect(first.status).toBe(201);
    for (let test = 1; test < 30; test += 1)
      expect((await sendTest(endpoint.id, 'invoices.InvoiceSent')).status).toBe(201);
    expect((await sendTest(endpoint.id, 'invoices.InvoiceSent')).status).toBe(429);
    const replayed = await sendTest(endpoint.id, 'invoices.InvoiceSent', key);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replayed.body).toEqual(first.body);
  }, 120_000);
});
