/**
 * Field lists of the API reference (docs/openapi.json) and the webhook guide, sorted, for tests that
 * check a response or event payload has exactly these fields.
 */

/**
 * The listed payment fields, plus the decline of a declined payment (docs/decisions/payments-read-api.md).
 */
export const paymentFields = [
  'paymentId',
  'merchantId',
  'customerId',
  'invoiceId',
  'amount',
  'amountRefunded',
  'currency',
  'status',
  'paymentMethodType',
  'processor',
  'processorReferenceId',
  'declineCode',
  'declineMessage',
  'createdAt',
  'updatedAt',
].sort();

/** Each subscribable event type's payload fields (docs/receiving-webhooks.md#event-types). */
export const eventPayloadFields = {
  'payments.PaymentCreated': [
    'paymentId',
    'paymentInstrumentId',
    'priceId',
    'processor',
    'customerId',
    'merchantId',
    'amount',
    'currency',
    'occurredAt',
  ].sort(),
  'payments.PaymentDeclined': [
    'paymentId',
    'merchantId',
    'processor',
    'declineCode',
    'declineMessage',
    'occurredAt',
  ].sort(),
  'payments.PaymentRefunded': [
    'refundId',
    'paymentId',
    'merchantId',
    'refundedAmount',
    'currency',
    'processorReferenceId',
    'occurredAt',
  ].sort(),
  'payments.PaymentReturned': [
    'returnId',
    'paymentId',
    'merchantId',
    'returnedAmount',
    'currency',
    'processorReferenceId',
    'occurredAt',
  ].sort(),
  'payouts.PayoutCreated': [
    'payoutId',
    'merchantId',
    'payoutAccountId',
    'processor',
    'grossAmount',
    'feeAmount',
    'netAmount',
    'currency',
    'occurredAt',
  ].sort(),
  'invoices.InvoiceSent': [
    'invoiceId',
    'merchantId',
    'customerId',
    'invoiceNumber',
    'resend',
    'occurredAt',
  ].sort(),
  'invoices.InvoicePaid': [
    'invoiceId',
    'merchantId',
    'customerId',
    'invoiceNumber',
    'amount',
    'currency',
    'paidAt',
  ].sort(),
} as const satisfies Record<string, readonly string[]>;

/** The sorted field names of a payload, to compare with `eventPayloadFields`. */
export function payloadFieldsOf(event: { payload: Record<string, unknown> }): string[] {
  return Object.keys(event.payload).sort();
}

/** Every event type an endpoint may subscribe to, as the API reference lists them. */
export const subscribableEventTypes = [
  'payments.PaymentCreated',
  'payments.PaymentDeclined',
  'payments.PaymentRefunded',
  'payments.PaymentReturned',
  'payouts.PayoutCreated',
  'invoices.InvoiceSent',
  'invoices.InvoicePaid',
];
