import { describe, expect } from 'vitest';
import {
  MerchantPayments,
  type WebhookEvent,
  WebhookVerificationError,
  webhooks,
} from '../../client/src/index';
import { e2eTest, webhookSettings } from '../support/e2e-test';

const test = e2eTest(webhookSettings);

const card = { type: 'card', number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' } as const;

/**
 * The whole flow of docs/getting-started.md, called through the package merchants install (client/README.md): every
 * delivery is verified by the receiver with `webhooks.verify`, which answers 401 to one that fails.
 */
describe('the merchant-payments client against the local runtime', () => {
  test('runs the flow from product to recovery, each delivery verified by webhooks.verify', async ({
    t,
    receiver,
  }) => {
    const client = new MerchantPayments({
      apiKey: t.runtime.apiKey,
      merchantId: t.merchantId,
      baseUrl: t.runtime.baseUrl,
    });
    const endpoint = await client.webhookEndpoints.create({
      url: receiver.url('/client-flow'),
      eventTypes: [
        'invoices.InvoiceSent',
        'invoices.InvoicePaid',
        'payments.PaymentCreated',
        'payments.PaymentRefunded',
      ],
    });
    const verified: WebhookEvent[] = [];
    const refused: string[] = [];
    receiver.respondWith((request) => {
      try {
        verified.push(webhooks.verify(request.rawBody, request.headers, endpoint.signingSecret));
        return { status: 204 };
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        refused.push(error.reason);
        return { status: 401 };
      }
    });

    const product = await client.catalog.products.create({ name: 'Green tea' });
    const price = await client.prices.create(product.productId, { unitAmount: 1800, currency: 'USD' });
    const customer = await client.customers.create({ name: 'Ada Lovelace', email: 'ada@example.com' });
    const draft = await client.invoices.create({
      customerId: customer.customerId,
      currency: 'USD',
      lineItems: [
        { kind: 'product_charge', productId: product.productId, priceId: price.priceId, quantity: 1 },
      ],
    });
    const issued = await client.invoices.issue(draft.invoiceId);
    expect(issued).toMatchObject({ status: 'issued', amountRemaining: { amount: 1800 } });

    const paid = await client.payLink.pay({ slug: issued.invoiceUrlSlug, amount: 1800, paymentMethod: card });
    expect(paid.invoice.status).toBe('paid');
    const payments = await client.payments.list({ customerId: customer.customerId }).toArray();
    expect(payments.map((payment) => payment.paymentId)).toEqual([paid.payment.paymentId]);
    const refund = await client.refunds.create(paid.payment.paymentId, { amount: 300 });
    expect(refund).toMatchObject({ status: 'succeeded', amount: 300 });
    const refunds = await client.refunds.list(paid.payment.paymentId).toArray();
    expect(refunds.map((listed) => listed.id)).toEqual([refund.id]);
    const paidInvoices: string[] = [];
    for await (const invoice of client.invoices.list({ status: 'paid' }))
      paidInvoices.push(invoice.invoiceId);
    expect(paidInvoices).toEqual([draft.invoiceId]);

    const test = await client.webhookEndpoints.sendTest(endpoint.webhookEndpointId, {
      eventType: 'invoices.InvoicePaid',
    });
    await receiver.waitFor(5, 20_000);
    expect(refused).toEqual([]);
    expect(verified.map((event) => event.type).sort()).toEqual([
      'invoices.InvoicePaid',
      'invoices.InvoicePaid',
      'invoices.InvoiceSent',
      'payments.PaymentCreated',
      'payments.PaymentRefunded',
    ]);
    const invoicePaid = verified.find(
      (event) => event.type === 'invoices.InvoicePaid' && event.data.invoiceId === draft.invoiceId,
    );
    expect(invoicePaid?.type === 'invoices.InvoicePaid' && invoicePaid.data.amount).toBe(1800);

    const deliveries = await client.deliveries.list(endpoint.webhookEndpointId).toArray();
    expect(deliveries).toHaveLength(5);
    expect(deliveries.map((delivery) => delivery.webhookDeliveryId)).toContain(test.webhookDeliveryId);
    const events = await client.events.list({ objectId: draft.invoiceId }).toArray();
    expect(events.map((event) => event.type).sort()).toEqual([
      'invoices.InvoicePaid',
      'invoices.InvoiceSent',
    ]);
    const [event] = events;
    if (event === undefined) throw new Error('the invoice has no events');
    expect(await client.events.retrieve(event.eventId)).toEqual(event);
    const ofEvent = await client.deliveries.listForEvent(event.eventId).toArray();
    expect(ofEvent.map((delivery) => delivery.webhookEndpointId)).toEqual([endpoint.webhookEndpointId]);

    const since = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const recovery = await client.recoveries.create(endpoint.webhookEndpointId, { since });
    const read = await client.recoveries.retrieve(endpoint.webhookEndpointId, recovery.recoveryId);
    expect(read).toMatchObject({ recoveryId: recovery.recoveryId, exhaustedFound: 0, redelivered: 0 });
  });
});
