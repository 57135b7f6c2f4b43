import * as z from 'zod/mini';
import { EventType } from '../domain/invoice';
import { Currency, maxAmount } from '../domain/money';
import { integer } from '../validation/integer';
import { documented } from '../validation/schema-meta';
import { text } from '../validation/text';
import { PaymentId, RefundId } from './payment-schemas';
import { CustomerId, InvoiceId, MerchantId, PriceId, Timestamp, typeIdSchema } from './shared-schemas';

// What a webhook delivery carries (docs/receiving-webhooks.md#body and #event-types): each event
// type's `data`, exactly the fields its builder in functions/domain/ writes, and the body around it.
// Only the OpenAPI document reads these; no function validates what it sends against them.

const WebhookDeliveryId = typeIdSchema('whkdel');
const PayoutId = typeIdSchema('po');
const ReturnId = typeIdSchema('ret');

const ChargedAmount = integer({ min: 1, max: maxAmount });
const Amount = integer({ min: 0, max: maxAmount });
const EventCurrency = z.enum(Currency);

const OccurredAt = documented(Timestamp, {
  description: 'ISO 8601 UTC date-time ending in Z: when the change the event reports happened.',
});

const Processor = documented(text(), {
  description:
    'The processor that made the change: `sandbox` for simulated payments, `stripe` in production.',
  example: 'sandbox',
});

const ProcessorReferenceId = documented(text({ min: 1 }), {
  description: "The processor's own id of the refund or return.",
});

const InvoiceNumber = documented(text(), { example: 'INV-000042' });

export const PaymentCreatedData = documented(
  z.strictObject({
    paymentId: PaymentId,
    paymentInstrumentId: documented(text({ min: 1 }), {
      description:
        "The processor's id of the card or account charged: a `pmi_…` TypeID in the sandbox, Stripe's PaymentMethod `pm_…` in production.",
      example: 'pmi_01h455vb4pex5vsknk084sn02q',
    }),
    priceId: documented(z.nullable(PriceId), {
      description: 'The price paid for; null for the payment of an invoice (an invoice is not one price).',
    }),
    processor: Processor,
    customerId: CustomerId,
    merchantId: MerchantId,
    amount: ChargedAmount,
    currency: EventCurrency,
    occurredAt: OccurredAt,
  }),
  { id: 'PaymentCreatedData' },
);

export const PaymentDeclinedData = documented(
  z.strictObject({
    paymentId: PaymentId,
    merchantId: MerchantId,
    processor: Processor,
    declineCode: documented(text({ min: 1 }), {
      description: "The processor's decline code (docs/sandbox-testing.md lists the sandbox's).",
      example: 'card_declined',
    }),
    declineMessage: z.nullable(text()),
    occurredAt: OccurredAt,
  }),
  { id: 'PaymentDeclinedData' },
);

export const PaymentRefundedData = documented(
  z.strictObject({
    refundId: RefundId,
    paymentId: PaymentId,
    merchantId: MerchantId,
    refundedAmount: documented(ChargedAmount, { description: 'What this one refund gave back.' }),
    currency: EventCurrency,
    processorReferenceId: ProcessorReferenceId,
    occurredAt: OccurredAt,
  }),
  { id: 'PaymentRefundedData' },
);

export const PaymentReturnedData = documented(
  z.strictObject({
    returnId: ReturnId,
    paymentId: PaymentId,
    merchantId: MerchantId,
    returnedAmount: documented(Amount, { description: 'What had not been refunded before the return.' }),
    currency: EventCurrency,
    processorReferenceId: ProcessorReferenceId,
    occurredAt: OccurredAt,
  }),
  { id: 'PaymentReturnedData' },
);

export const PayoutCreatedData = documented(
  z.strictObject({
    payoutId: PayoutId,
    merchantId: MerchantId,
    payoutAccountId: documented(text({ min: 1 }), {
      description:
        "Where the payout goes: the merchant's simulated `pacct_…` account in the sandbox, the Stripe payout's destination `ba_…` in production.",
      example: 'pacct_01h455vb4pex5vsknk084sn02q',
    }),
    processor: Processor,
    grossAmount: Amount,
    feeAmount: Amount,
    netAmount: Amount,
    currency: EventCurrency,
    occurredAt: OccurredAt,
  }),
  { id: 'PayoutCreatedData' },
);

export const InvoiceSentData = documented(
  z.strictObject({
    invoiceId: InvoiceId,
    merchantId: MerchantId,
    customerId: CustomerId,
    invoiceNumber: InvoiceNumber,
    resend: documented(z.boolean(), {
      description: 'false when the invoice is issued, true when it is sent again.',
    }),
    occurredAt: OccurredAt,
  }),
  { id: 'InvoiceSentData' },
);

export const InvoicePaidData = documented(
  z.strictObject({
    invoiceId: InvoiceId,
    merchantId: MerchantId,
    customerId: CustomerId,
    invoiceNumber: InvoiceNumber,
    amount: documented(Amount, {
      description: 'The invoice total; 0 for an invoice of total 0, paid as it is issued.',
    }),
    currency: EventCurrency,
    paidAt: documented(Timestamp, {
      description: 'ISO 8601 UTC date-time ending in Z: when it was paid in full.',
    }),
  }),
  { id: 'InvoicePaidData' },
);

/** The delivery body `{id, type, createdAt, data}` of one event type, in the order it is sent. */
function deliveryOf<T extends EventType, D extends z.ZodMiniType>(type: T, data: D, id: string) {
  return documented(
    z.strictObject({
      id: documented(WebhookDeliveryId, {
        description: 'The delivery id, equal to the `Merchant-Webhook-Id` header; the same on every retry.',
      }),
      type: z.literal(type),
      createdAt: documented(Timestamp, {
        description: 'ISO 8601 UTC date-time ending in Z: when the delivery was created.',
      }),
      data,
    }),
    { id },
  );
}

/**
 * Each subscribable type's webhook as the OpenAPI document describes it: the operation a receiver
 * serves, when it is sent (the guide's "Sent when" in plain text, docs/receiving-webhooks.md#event-types),
 * and the body it is sent.
 */
export const eventWebhooks = {
  [EventType.paymentCreated]: {
    operationId: 'paymentCreatedWebhook',
    summary: 'A payment succeeds: on the pay page, or through the sandbox routes',
    delivery: deliveryOf(EventType.paymentCreated, PaymentCreatedData, 'PaymentCreatedDelivery'),
  },
  [EventType.paymentDeclined]: {
    operationId: 'paymentDeclinedWebhook',
    summary: 'A payment attempt is declined',
    delivery: deliveryOf(EventType.paymentDeclined, PaymentDeclinedData, 'PaymentDeclinedDelivery'),
  },
  [EventType.paymentRefunded]: {
    operationId: 'paymentRefundedWebhook',
    summary: 'A payment is refunded, in full or in part: one event per refund',
    delivery: deliveryOf(EventType.paymentRefunded, PaymentRefundedData, 'PaymentRefundedDelivery'),
  },
  [EventType.paymentReturned]: {
    operationId: 'paymentReturnedWebhook',
    summary: 'A bank payment is returned by the bank',
    delivery: deliveryOf(EventType.paymentReturned, PaymentReturnedData, 'PaymentReturnedDelivery'),
  },
  [EventType.payoutCreated]: {
    operationId: 'payoutCreatedWebhook',
    summary: 'A payout is created',
    delivery: deliveryOf(EventType.payoutCreated, PayoutCreatedData, 'PayoutCreatedDelivery'),
  },
  [EventType.invoiceSent]: {
    operationId: 'invoiceSentWebhook',
    summary: 'An invoice is issued (resend false) or sent again (resend true)',
    delivery: deliveryOf(EventType.invoiceSent, InvoiceSentData, 'InvoiceSentDelivery'),
  },
  [EventType.invoicePaid]: {
    operationId: 'invoicePaidWebhook',
    summary: 'An invoice is paid in full',
    delivery: deliveryOf(EventType.invoicePaid, InvoicePaidData, 'InvoicePaidDelivery'),
  },
} as const satisfies Record<
  EventType,
  { readonly operationId: string; readonly summary: string; readonly delivery: z.ZodMiniType }
>;
