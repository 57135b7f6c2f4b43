import { describe, expect, it } from 'vitest';
import { deliveryIdFor } from '../../functions/domain/webhook-delivery';
import { keys } from '../../functions/store/keys';
import { responseProblems } from '../support/document-schemas';
import { e2eFile, merchantId, t, webhookSettings } from '../support/e2e-test';
import type { HttpsReceiver } from '../support/https-receiver';
import { createInvoice, expectOk, invoiceAction, invoiceBody } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { setItemTtl } from '../support/item-ttl';
import { type ApiClient, newKey } from '../support/local-runtime';
import { cards, sandboxPayment, testCard } from '../support/payment-requests';

/*
 * The event log through the local runtime: six events of five types about three objects, each
 * delivered to three endpoints on real HTTPS receivers.
 */

const test = e2eFile(webhookSettings);
const endpointIds: string[] = [];
/** The events as the log lists them, oldest first, in the order the requests made them. */
let created: { eventId: string; type: string; objectId: string; createdAt: string; data: any }[] = [];
let invoiceId: string;
let paymentId: string;
let payoutId: string;

const allTypes = [
  'invoices.InvoiceSent',
  'invoices.InvoicePaid',
  'payments.PaymentCreated',
  'payments.PaymentRefunded',
  'payouts.PayoutCreated',
];

const receivers: HttpsReceiver[] = [];
test.beforeAll(async ({ receivers: pool }) => {
  for (let index = 0; index < 3; index += 1) {
    const receiver = await pool.start();
    receivers.push(receiver);
    const endpoint = expectOk(
      await t.api('POST', `/merchants/${merchantId}/webhook-endpoints`, {
        body: { url: receiver.url(), eventTypes: allTypes },
        idempotencyKey: newKey(),
      }),
    );
    endpointIds.push(endpoint.webhookEndpointId);
  }
  const refs = await invoiceFixtures(t.api, merchantId);
  const invoice = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs)));
  invoiceId = invoice.invoiceId;
  expectOk(await invoiceAction(t.api, merchantId, invoiceId, 'issue'));
  expectOk(await invoiceAction(t.api, merchantId, invoiceId, 'send'));
  expectOk(await invoiceAction(t.api, merchantId, invoiceId, 'payments', { amount: invoice.total.amount }));
  const payment = expectOk(
    await sandboxPayment(t.api, {
      merchantId,
      customerId: refs.customerId,
      amount: 5000,
      currency: 'USD',
      paymentMethod: testCard(cards.succeeds),
    }),
  );
  paymentId = payment.paymentId;
  expectOk(
    await t.api('POST', `/sandbox/payments/${paymentId}/refunds`, {
      body: { merchantId, amount: 1000 },
      idempotencyKey: newKey(),
    }),
  );
  payoutId = expectOk(
    await t.api('POST', '/sandbox/payouts', {
      body: { merchantId, amount: 10_000, currency: 'USD' },
      idempotencyKey: newKey(),
    }),
  ).payoutId;
  // Every event reaches every endpoint before the log is read.
  for (const receiver of receivers) await receiver.waitFor(6, 30_000);
  created = [...expectOk(await events({ limit: 100 })).items].reverse();
}, 120_000);

const events = (query: Record<string, string | number> = {}, api: ApiClient = t.api, merchant = merchantId) =>
  api('GET', '/events', { query: { merchantId: merchant, ...query } });
const ids = (body: any): string[] => body.items.map((item: any) => item.eventId);
const newestFirst = (list: typeof created) => list.map((event) => event.eventId).reverse();

describe('GET /events', () => {
  it('lists every event newest first, each with its type, object and data', () => {
    expect(created.map((event) => [event.type, event.objectId])).toEqual([
      ['invoices.InvoiceSent', invoiceId],
      ['invoices.InvoiceSent', invoiceId],
      ['invoices.InvoicePaid', invoiceId],
      ['payments.PaymentCreated', paymentId],
      ['payments.PaymentRefunded', paymentId],
      ['payouts.PayoutCreated', payoutId],
    ]);
    const times = created.map((event) => Date.parse(event.createdAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('filters by type, by object, and by both', async () => {
    const sent = created.filter((event) => event.type === 'invoices.InvoiceSent');
    expect(ids(expectOk(await events({ type: 'invoices.InvoiceSent' })))).toEqual(newestFirst(sent));
    const ofPayment = created.filter((event) => event.objectId === paymentId);
    expect(ids(expectOk(await events({ objectId: paymentId })))).toEqual(newestFirst(ofPayment));
    const paid = created.filter((event) => event.type === 'invoices.InvoicePaid');
    expect(ids(expectOk(await events({ objectId: invoiceId, type: 'invoices.InvoicePaid' })))).toEqual(
      newestFirst(paid),
    );
    expect(expectOk(await events({ objectId: payoutId, type: 'invoices.InvoicePaid' })).items).toEqual([]);
  });

  it('includes both bounds of a created range, to the millisecond', async () => {
    const [, second, third, fourth] = created;
    if (second === undefined || third === undefined || fourth === undefined)
      throw new Error('too few events');
    const range = expectOk(await events({ createdFrom: second.createdAt, createdTo: fourth.createdAt }));
    expect(ids(range)).toEqual([fourth.eventId, third.eventId, second.eventId]);
    const instant = expectOk(await events({ createdFrom: third.createdAt, createdTo: third.createdAt }));
    expect(ids(instant)).toEqual([third.eventId]);
    const justAfter = new Date(Date.parse(second.createdAt) + 1).toISOString();
    const justBefore = new Date(Date.parse(fourth.createdAt) - 1).toISOString();
    const inside = expectOk(await events({ createdFrom: justAfter, createdTo: justBefore }));
    expect(ids(inside)).toEqual([third.eventId]);
  });

  it('pages with cursors over every event exactly once, in order', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = expectOk(await events({ limit: 4, ...(cursor === undefined ? {} : { cursor }) }));
      seen.push(...ids(page));
      cursor = page.page.nextCursor;
      expect(page.page.hasMore).toBe(cursor !== undefined);
    } while (cursor !== undefined);
    expect(seen).toEqual(newestFirst(created));
  });

  it('pages a filtered list with its own cursors, and refuses a cursor of another filter', async () => {
    const first = expectOk(await events({ objectId: invoiceId, limit: 1 }));
    const second = expectOk(await events({ objectId: invoiceId, limit: 5, cursor: first.page.nextCursor }));
    expect([...ids(first), ...ids(second)]).toEqual(
      newestFirst(created.filter((event) => event.objectId === invoiceId)),
    );
    const refused = await events({ objectId: paymentId, cursor: first.page.nextCursor });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((detail: any) => detail.path)).toEqual(['cursor']);
    const unfiltered = await events({ cursor: first.page.nextCursor });
    expect(unfiltered.status).toBe(400);
  });
});

describe('GET /events/{eventId}', () => {
  it('returns the event with exactly the data each endpoint received in its delivery', async () => {
    for (const event of created) {
      const fetched = expectOk(await t.api('GET', `/events/${event.eventId}`, { query: { merchantId } }));
      expect(fetched).toEqual({
        eventId: event.eventId,
        type: event.type,
        createdAt: event.createdAt,
        objectId: event.objectId,
        objectVersion: expect.any(Number),
        data: event.data,
      });
      // Each endpoint's receiver got the event's delivery, whose id derives from event and endpoint,
      // with the same data and the same object version in its header.
      receivers.forEach((receiver, index) => {
        const deliveryId = deliveryIdFor(event.eventId, endpointIds[index] ?? '');
        const delivered = receiver.requests.filter(
          (request) => JSON.parse(request.rawBody.toString('utf8')).id === deliveryId,
        );
        expect(delivered.length).toBeGreaterThan(0);
        for (const request of delivered) {
          expect(fetched.data).toStrictEqual(JSON.parse(request.rawBody.toString('utf8')).data);
          expect(request.headers['merchant-webhook-object-version']).toBe(String(fetched.objectVersion));
          expect(request.headers['merchant-webhook-event-id']).toBe(event.eventId);
        }
      });
    }
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const unknown = await t.api('GET', '/events/evt_01h455vb4pex5vsknk084sn02q', { query: { merchantId } });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
    const malformed = await t.api('GET', '/events/evt_nope', { query: { merchantId } });
    expect([malformed.status, malformed.body.error.code]).toEqual([404, 'not_found']);
  });
});

describe('GET /events/{eventId}/deliveries', () => {
  it('lists the event’s delivery to each of three endpoints, and a redelivery', async () => {
    const event = created[0];
    if (event === undefined) throw new Error('no event');
    const path = `/events/${event.eventId}/deliveries`;
    const before = expectOk(await t.api('GET', path, { query: { merchantId } }));
    expect(before.items.map((item: any) => item.webhookEndpointId).sort()).toEqual([...endpointIds].sort());
    const original = before.items.find((item: any) => item.webhookEndpointId === endpointIds[1]);
    const redelivered = expectOk(
      await t.api(
        'POST',
        `/merchants/${merchantId}/webhook-endpoints/${endpointIds[1]}/deliveries/${original.webhookDeliveryId}/redeliver`,
        { idempotencyKey: newKey() },
      ),
    );
    const after = expectOk(await t.api('GET', path, { query: { merchantId } }));
    expect(after.items).toHaveLength(4);
    // What a strict client validates: every field of every item is one the document declares.
    expect(responseProblems('GET', '/events/{eventId}/deliveries', 200, after)).toEqual([]);
    const fetched = expectOk(await t.api('GET', `/events/${event.eventId}`, { query: { merchantId } }));
    expect(after.items[0]).toMatchObject({
      webhookDeliveryId: redelivered.webhookDeliveryId,
      webhookEndpointId: endpointIds[1],
      redeliveredFromId: original.webhookDeliveryId,
      sequence: redelivered.sequence,
      objectVersion: fetched.objectVersion,
    });
    // A redelivery is a new delivery to the endpoint: it takes a later number of its sequence.
    expect(redelivered.sequence).toBeGreaterThan(original.sequence);
    for (const item of after.items) {
      expect(item).toMatchObject({
        eventId: event.eventId,
        eventType: event.type,
        sequence: expect.any(Number),
        objectVersion: fetched.objectVersion,
      });
      expect(Array.isArray(item.attempts)).toBe(true);
    }
    // Pages of one delivery cover the four exactly once.
    const first = expectOk(await t.api('GET', path, { query: { merchantId, limit: 3 } }));
    const rest = expectOk(
      await t.api('GET', path, { query: { merchantId, limit: 3, cursor: first.page.nextCursor } }),
    );
    expect([...first.items, ...rest.items].map((item: any) => item.webhookDeliveryId)).toEqual(
      after.items.map((item: any) => item.webhookDeliveryId),
    );
  });

  it('answers 404 for an unknown event, and an empty list for an event without deliveries', async () => {
    const unknown = await t.api('GET', '/events/evt_01h455vb4pex5vsknk084sn02q/deliveries', {
      query: { merchantId },
    });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
    // A merchant without endpoints: its payout's event has no delivery, only the event's own entry.
    const other = await t.anotherMerchant();
    expectOk(
      await other.api('POST', '/sandbox/payouts', {
        body: { merchantId: other.merchantId, amount: 500, currency: 'USD' },
        idempotencyKey: newKey(),
      }),
    );
    const [payoutEvent] = expectOk(await events({}, other.api, other.merchantId)).items;
    const path = `/events/${payoutEvent.eventId}/deliveries`;
    expect(expectOk(await other.api('GET', path, { query: { merchantId: other.merchantId } }))).toEqual({
      items: [],
      page: { hasMore: false },
    });
    const foreign = await t.api('GET', path, { query: { merchantId } });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'not_found']);
  });

  it('refuses a cursor of another event’s deliveries with 400', async () => {
    const [first, second] = created;
    if (first === undefined || second === undefined) throw new Error('no events');
    const page = expectOk(
      await t.api('GET', `/events/${first.eventId}/deliveries`, { query: { merchantId, limit: 1 } }),
    );
    const refused = await t.api('GET', `/events/${second.eventId}/deliveries`, {
      query: { merchantId, limit: 1, cursor: page.page.nextCursor },
    });
    expect([refused.status, refused.body.error.details]).toEqual([
      400,
      [{ path: 'cursor', message: 'must be a nextCursor of this list, with the same filters.' }],
    ]);
  });
});

describe('another merchant', () => {
  it('finds none of the merchant’s events: 404 for each, an empty list, 404 for deliveries', async () => {
    const other = await t.anotherMerchant();
    const event = created[0];
    if (event === undefined) throw new Error('no event');
    const query = { merchantId: other.merchantId };
    const fetched = await other.api('GET', `/events/${event.eventId}`, { query });
    expect([fetched.status, fetched.body.error.code]).toEqual([404, 'not_found']);
    const deliveries = await other.api('GET', `/events/${event.eventId}/deliveries`, { query });
    expect([deliveries.status, deliveries.body.error.code]).toEqual([404, 'not_found']);
    expect(expectOk(await events({}, other.api, other.merchantId)).items).toEqual([]);
    expect(expectOk(await events({ objectId: invoiceId }, other.api, other.merchantId)).items).toEqual([]);
  });
});

describe('retention', () => {
  it('answers 404 for an event whose ttl has passed and lists it nowhere, though DynamoDB keeps it', async () => {
    const expired = created.at(-1);
    if (expired === undefined) throw new Error('no event');
    const past = Math.floor(Date.now() / 1000) - 1;
    const expire = (key: Record<string, unknown>) => setItemTtl(t.runtime.tableName, key, past);
    await expire(keys.event(expired.eventId));
    const stored = await t.scanTable();
    for (const item of stored.filter((item) => item.entityType === 'WebhookDelivery')) {
      if (item.eventId === expired.eventId) await expire({ PK: item.PK, SK: item.SK });
    }
    const fetched = await t.api('GET', `/events/${expired.eventId}`, { query: { merchantId } });
    expect([fetched.status, fetched.body.error.code]).toEqual([404, 'not_found']);
    const deliveries = await t.api('GET', `/events/${expired.eventId}/deliveries`, { query: { merchantId } });
    expect(deliveries.status).toBe(404);
    expect(ids(expectOk(await events({ limit: 100 })))).not.toContain(expired.eventId);
    expect(ids(expectOk(await events({ type: expired.type })))).toEqual([]);
    expect(ids(expectOk(await events({ objectId: expired.objectId })))).toEqual([]);
    expect(
      (await t.scanTable()).some((item) => item.eventId === expired.eventId && item.SK === 'EVENT'),
    ).toBe(true);
  });
});
