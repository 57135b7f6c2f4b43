import { describe, expect } from 'vitest';
import {
  type DeliveriesPage,
  findDeliveryBySequence,
  LatestVersions,
  objectIdOf,
  orderingOf,
  SequenceTracker,
} from '../../docs/receiving-webhooks/track-sequence';
import { e2eInvoiceFile, merchantId, refs, t, webhookSettings } from '../support/e2e-test';
import type { ReceivedRequest } from '../support/https-receiver';
import { newKey } from '../support/local-runtime';
import { expectVerifiedDelivery } from '../support/webhook-checks';

const test = e2eInvoiceFile(webhookSettings);
test.afterEach(({ endpoints }) => endpoints.deleteAll());

async function post(path: string, body: Record<string, unknown>) {
  const result = await t.api('POST', path, { body: { merchantId, ...body }, idempotencyKey: newKey() });
  expect(result.status, JSON.stringify(result.body)).toBeLessThan(300);
  return result.body;
}

/**
 * An invoice issued, sent again and paid in full: three events (InvoiceSent, InvoiceSent,
 * InvoicePaid), each with the invoice's currentRevisionNumber after its change.
 */
async function invoiceLifecycle() {
  const created = await post('/invoices', {
    customerId: refs.customerId,
    currency: 'USD',
    lineItems: [{ kind: 'product_charge', productId: refs.productId, priceId: refs.priceId, quantity: 1 }],
  });
  const issued = await post(`/invoices/${created.invoiceId}/issue`, {});
  const sent = await post(`/invoices/${created.invoiceId}/send`, {});
  const paid = await post(`/invoices/${created.invoiceId}/payments`, { amount: sent.amountRemaining.amount });
  return {
    invoiceId: created.invoiceId as string,
    revisions: {
      issued: issued.currentRevisionNumber as number,
      resent: sent.currentRevisionNumber as number,
      paid: paid.currentRevisionNumber as number,
    },
  };
}

function listPageOf(endpointId: string) {
  return async (cursor: string | undefined): Promise<DeliveriesPage> =>
    (
      await t.api('GET', `/merchants/${merchantId}/webhook-endpoints/${endpointId}/deliveries`, {
        query: { limit: 2, ...(cursor === undefined ? {} : { cursor }) },
      })
    ).body;
}

async function allDeliveries(endpointId: string) {
  const items: any[] = [];
  let cursor: string | undefined;
  do {
    const { items: page, page: meta } = await listPageOf(endpointId)(cursor);
    items.push(...page);
    cursor = meta.hasMore ? meta.nextCursor : undefined;
  } while (cursor !== undefined);
  return items;
}

/** The delivery's verified body, and its ordering headers as the guide's code reads them. */
function received(request: ReceivedRequest, secret: string) {
  return { body: expectVerifiedDelivery(request, secret), ...orderingOf(request.headers) };
}

describe('ordering headers through the local runtime', () => {
  test('numbers an endpoint’s deliveries 1 … n, names each event and its invoice revision, and lists the same', async ({
    receivers,
    endpoints,
  }) => {
    const hooks = await receivers.start();
    const endpoint = await endpoints.subscribe(hooks.url(), ['invoices.InvoiceSent', 'invoices.InvoicePaid']);
    const first = await invoiceLifecycle();
    const second = await invoiceLifecycle();

    const requests = await hooks.waitFor(6, 20_000);
    const deliveries = requests.map((request) => received(request, endpoint.secret));
    expect(deliveries.map(({ sequence }) => sequence).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    for (const { body, objectVersion } of deliveries) {
      const invoice = body.data.invoiceId === first.invoiceId ? first : second;
      const revision =
        body.type === 'invoices.InvoicePaid'
          ? invoice.revisions.paid
          : body.data.resend
            ? invoice.revisions.resent
            : invoice.revisions.issued;
      expect(objectVersion).toBe(revision);
    }
    expect(new Set(deliveries.map(({ eventId }) => eventId)).size).toBe(6);

    const listed = await allDeliveries(endpoint.id);
    expect(listed).toHaveLength(6);
    for (const { body, eventId, sequence, objectVersion } of deliveries) {
      const item = listed.find((each) => each.webhookDeliveryId === body.id);
      expect(item).toMatchObject({ eventId, sequence, objectVersion, eventType: body.type });
      expect(eventId).toMatch(/^evt_/);
    }

    // A redelivery is a new delivery of the same event: it takes the next number.
    const original = deliveries.find(({ sequence }) => sequence === 2);
    const redelivered = await t.api(
      'POST',
      `/merchants/${merchantId}/webhook-endpoints/${endpoint.id}/deliveries/${original?.body.id}/redeliver`,
      { idempotencyKey: newKey() },
    );
    expect(redelivered.status).toBe(201);
    expect(redelivered.body).toMatchObject({
      sequence: 7,
      eventId: original?.eventId,
      objectVersion: original?.objectVersion,
    });
    const [, , , , , , again] = await hooks.waitFor(7);
    expect(received(again as ReceivedRequest, endpoint.secret)).toMatchObject({
      body: { id: redelivered.body.webhookDeliveryId, data: original?.body.data },
      eventId: original?.eventId,
      sequence: 7,
      objectVersion: original?.objectVersion,
    });
  }, 45_000);

  test('lets a receiver that loses a delivery find the gap by its number, fetch the event from the event log, and have it redelivered', async ({
    receivers,
    endpoints,
  }) => {
    const hooks = await receivers.start();
    const tracker = new SequenceTracker();
    const latest = new LatestVersions();
    const stale: number[] = [];
    // What reached the receiver's code, in order: the model the stale ones are checked against.
    const arrivals: { sequence: number; objectVersion: number }[] = [];
    // Every attempt of delivery 2 is cut off: it never reaches the receiver's code.
    hooks.respondWith((request) => {
      const { sequence, objectVersion } = orderingOf(request.headers);
      if (sequence === 2) return { status: 200, drop: true };
      if (sequence !== undefined && objectVersion !== undefined) arrivals.push({ sequence, objectVersion });
      const event = JSON.parse(request.rawBody.toString('utf8'));
      const objectId = objectIdOf(event);
      if (
        objectId !== undefined &&
        objectVersion !== undefined &&
        !latest.applyIfNewer(objectId, objectVersion)
      ) {
        stale.push(sequence ?? 0);
      }
      if (sequence !== undefined) tracker.record(sequence);
      return { status: 200 };
    });
    const endpoint = await endpoints.subscribe(hooks.url(), ['invoices.InvoiceSent', 'invoices.InvoicePaid']);
    await invoiceLifecycle();

    await expect.poll(() => tracker.missing(), { timeout: 20_000, interval: 100 }).toEqual([2]);
    const lost = await findDeliveryBySequence(listPageOf(endpoint.id), 2);
    expect(lost).toMatchObject({ sequence: 2, eventId: expect.stringMatching(/^evt_/) });
    // It need not wait: the event log has the missed event, with the data and the object version
    // its delivery carries.
    const missed = await t.api('GET', `/events/${lost?.eventId}`, { query: { merchantId } });
    expect(missed.status).toBe(200);
    // The list's item has more fields than the guide's code reads.
    const listed = lost as { eventType?: string; objectVersion?: number | null } | undefined;
    expect(missed.body).toMatchObject({
      eventId: lost?.eventId,
      type: listed?.eventType,
      objectVersion: listed?.objectVersion,
    });
    expect(missed.body.objectVersion).toEqual(expect.any(Number));

    // Once it has stopped retrying, the receiver asks for it again and settles the gap.
    await expect
      .poll(async () => (await findDeliveryBySequence(listPageOf(endpoint.id), 2))?.status, {
        timeout: 20_000,
      })
      .toBe('exhausted');
    const redelivered = await t.api(
      'POST',
      `/merchants/${merchantId}/webhook-endpoints/${endpoint.id}/deliveries/${lost?.webhookDeliveryId}/redeliver`,
      { idempotencyKey: newKey() },
    );
    expect(redelivered.body.sequence).toBe(4);
    await expect
      .poll(() => hooks.requests.some((request) => orderingOf(request.headers).sequence === 4))
      .toBe(true);
    const resent = hooks.requests.find((request) => orderingOf(request.headers).sequence === 4);
    expect(JSON.parse(resent?.rawBody.toString('utf8') ?? '{}').data).toStrictEqual(missed.body.data);
    tracker.settle(2);
    expect(tracker.missing()).toEqual([]);
    // The redelivered resend (revision 3) came after the payment (revision 4) was applied: stale.
    // Deliveries of one batch are sent at once, so the first ones may also arrive after a later
    // revision: a delivery is stale exactly when a higher or equal revision of the invoice came first.
    expect(stale).toContain(4);
    const expected = arrivals
      .filter(({ objectVersion }, index) =>
        arrivals.slice(0, index).some((earlier) => earlier.objectVersion >= objectVersion),
      )
      .map(({ sequence }) => sequence);
    expect(stale).toEqual(expected);
  }, 60_000);
});
