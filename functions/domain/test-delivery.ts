import { newId } from './ids';
import { EventType, formatInvoiceNumber } from './invoice';
import { newDelivery, type WebhookDelivery } from './webhook-delivery';

/**
 * A fixed, realistic sample payload of an event type: exactly the fields of that type
 * that docs/receiving-webhooks.md#event-types lists, the caller's merchant, fresh ids with each resource's
 * prefix and `now` as the time of the change. Amounts are minor units of USD; nothing it names exists.
 */
export function samplePayload(
  eventType: EventType,
  merchantId: string,
  now: string,
): Record<string, unknown> {
  switch (eventType) {
    case EventType.paymentCreated:
      return {
        paymentId: newId('pmt'),
        paymentInstrumentId: newId('pmi'),
        priceId: newId('price'),
        processor: 'sandbox',
        customerId: newId('cust'),
        merchantId,
        amount: 2500,
        currency: 'USD',
        occurredAt: now,
      };
    case EventType.paymentDeclined:
      return {
        paymentId: newId('pmt'),
        merchantId,
        processor: 'sandbox',
        declineCode: 'card_declined',
        declineMessage: 'The card was declined.',
        occurredAt: now,
      };
    case EventType.paymentRefunded:
      return {
        refundId: newId('refund'),
        paymentId: newId('pmt'),
        merchantId,
        refundedAmount: 1000,
        currency: 'USD',
        processorReferenceId: 'ch_test_refund_0001',
        occurredAt: now,
      };
    case EventType.paymentReturned:
      return {
        returnId: newId('ret'),
        paymentId: newId('pmt'),
        merchantId,
        returnedAmount: 2500,
        currency: 'USD',
        processorReferenceId: 'ch_test_return_0001',
        occurredAt: now,
      };
    case EventType.payoutCreated:
      return {
        payoutId: newId('po'),
        merchantId,
        payoutAccountId: newId('pacct'),
        processor: 'sandbox',
        grossAmount: 10000,
        feeAmount: 320,
        netAmount: 9680,
        currency: 'USD',
        occurredAt: now,
      };
    case EventType.invoiceSent:
      return {
        invoiceId: newId('inv'),
        merchantId,
        customerId: newId('cust'),
        invoiceNumber: formatInvoiceNumber(1),
        resend: false,
        occurredAt: now,
      };
    case EventType.invoicePaid:
      return {
        invoiceId: newId('inv'),
        merchantId,
        customerId: newId('cust'),
        invoiceNumber: formatInvoiceNumber(1),
        amount: 2500,
        currency: 'USD',
        paidAt: now,
      };
  }
}

/**
 * A test delivery (docs/decisions/test-deliveries.md): one delivery of sample data to an endpoint, sent
 * with the `Merchant-Webhook-Test: true` header and otherwise a delivery like any other. Its
 * `evt_` id is minted here and never written to the event log; it names no object, so it has no
 * object version.
 */
export function testDeliveryOf(input: {
  webhookEndpointId: string;
  merchantId: string;
  eventType: EventType;
  now: string;
}): WebhookDelivery {
  return {
    ...newDelivery({
      webhookDeliveryId: newId('whkdel'),
      webhookEndpointId: input.webhookEndpointId,
      merchantId: input.merchantId,
      eventId: newId('evt'),
      eventType: input.eventType,
      data: samplePayload(input.eventType, input.merchantId, input.now),
      paused: false,
      now: input.now,
    }),
    test: true,
  };
}
