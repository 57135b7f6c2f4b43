import { describe, expect } from 'vitest';
import { e2eInvoiceFile, merchantId, refs, t, webhookSettings } from '../support/e2e-test';
import { createInvoice, expectOk, invoiceBody, productLine } from '../support/invoice-requests';
import { newKey } from '../support/local-runtime';
import { expectVerifiedDelivery } from '../support/webhook-checks';

const test = e2eInvoiceFile(webhookSettings, { beforeRouting: async () => streamHeld });
/** While set, the router waits for it before it sees a stream batch. */
let streamHeld: Promise<void> | undefined;

test.afterEach(({ endpoints }) => endpoints.deleteAll());

/** Holds the stream back from the router until the returned function is called. */
function holdStream(): () => void {
  let release = () => {};
  streamHeld = new Promise<void>((resolve) => {
    release = resolve;
  });
  return () => {
    streamHeld = undefined;
    release();
  };
}

async function changeEventTypes(endpointId: string, eventTypes: string[]) {
  const result = await t.api('PATCH', `/merchants/${merchantId}/webhook-endpoints/${endpointId}`, {
    body: { eventTypes },
    idempotencyKey: newKey(),
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
}

async function draftInvoice(): Promise<string> {
  const body = invoiceBody(merchantId, refs, { lineItems: [productLine(refs)] });
  return expectOk(await createInvoice(t.api, body)).invoiceId;
}

/**
 * Issues (or sends again) the invoice: one invoices.InvoiceSent, occurring at the invoice's new
 * `updatedAt`. Returns once this machine's clock, which the API also reads, is past that millisecond,
 * so whatever is created next is created after the event.
 */
async function invoiceSent(invoiceId: string, action: 'issue' | 'send'): Promise<void> {
  const result = await t.api('POST', `/invoices/${invoiceId}/${action}`, {
    body: { merchantId },
    idempotencyKey: newKey(),
  });
  expect(result.status).toBe(200);
  const occurredAt = Date.parse(result.body.updatedAt);
  await expect.poll(() => Date.now() > occurredAt, { timeout: 5_000, interval: 1 }).toBe(true);
}

const deliveriesOf = async (endpointId: string) =>
  (await t.api('GET', `/merchants/${merchantId}/webhook-endpoints/${endpointId}/deliveries`)).body.items;

describe('webhook deliveries and the time an endpoint subscribed', () => {
  test('sends an event to an endpoint that existed when it occurred, not to one created before the router saw it', async ({
    receivers,
    endpoints,
  }) => {
    const earlier = await receivers.start();
    const later = await receivers.start();
    const before = await endpoints.subscribe(earlier.url(), ['invoices.InvoiceSent']);
    const invoiceId = await draftInvoice();
    await t.runtime.drainStream();

    const release = holdStream();
    let after: { id: string; secret: string };
    try {
      await invoiceSent(invoiceId, 'issue');
      after = await endpoints.subscribe(later.url(), ['invoices.InvoiceSent']);
    } finally {
      release();
    }
    await t.runtime.drainStream();

    const [issued] = await earlier.waitFor(1);
    expect(expectVerifiedDelivery(issued as never, before.secret).data).toMatchObject({
      invoiceId,
      resend: false,
    });
    expect(await deliveriesOf(after.id)).toEqual([]);
    expect(later.requests).toEqual([]);

    // The later endpoint does receive what occurs once it exists.
    await invoiceSent(invoiceId, 'send');
    const [resent] = await later.waitFor(1);
    expect(expectVerifiedDelivery(resent as never, after.secret).data).toMatchObject({
      invoiceId,
      resend: true,
    });
    expect(await earlier.waitFor(2)).toHaveLength(2);
  });

  test('sends no event to an endpoint subscribed to its type after it occurred, removed and added back included', async ({
    receivers,
    endpoints,
  }) => {
    const kept = await receivers.start();
    const added = await receivers.start();
    const readded = await receivers.start();
    const keptEndpoint = await endpoints.subscribe(kept.url(), ['invoices.InvoiceSent']);
    const addedEndpoint = await endpoints.subscribe(added.url(), ['invoices.InvoicePaid']);
    const readdedEndpoint = await endpoints.subscribe(readded.url(), ['invoices.InvoiceSent']);
    const invoiceId = await draftInvoice();
    await t.runtime.drainStream();

    const release = holdStream();
    try {
      await changeEventTypes(readdedEndpoint.id, ['invoices.InvoicePaid']);
      await invoiceSent(invoiceId, 'issue');
      await changeEventTypes(addedEndpoint.id, ['invoices.InvoicePaid', 'invoices.InvoiceSent']);
      await changeEventTypes(readdedEndpoint.id, ['invoices.InvoiceSent']);
      await changeEventTypes(keptEndpoint.id, ['invoices.InvoiceSent', 'invoices.InvoicePaid']);
    } finally {
      release();
    }
    await t.runtime.drainStream();

    const [issued] = await kept.waitFor(1);
    expect(expectVerifiedDelivery(issued as never, keptEndpoint.secret).data).toMatchObject({ invoiceId });
    expect(await deliveriesOf(addedEndpoint.id)).toEqual([]);
    expect(await deliveriesOf(readdedEndpoint.id)).toEqual([]);

    await invoiceSent(invoiceId, 'send');
    expect(expectVerifiedDelivery((await added.waitFor(1))[0] as never, addedEndpoint.secret).type).toBe(
      'invoices.InvoiceSent',
    );
    expect(expectVerifiedDelivery((await readded.waitFor(1))[0] as never, readdedEndpoint.secret).type).toBe(
      'invoices.InvoiceSent',
    );
    expect(await kept.waitFor(2)).toHaveLength(2);
    expect(added.requests).toHaveLength(1);
    expect(readded.requests).toHaveLength(1);
  });
});
