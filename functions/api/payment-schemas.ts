import * as z from 'zod/mini';
import { PaymentMethodType } from '../domain/invoice';
import { Currency, maxAmount } from '../domain/money';
import { PaymentStatus, RefundStatus } from '../domain/payment';
import { integer } from '../validation/integer';
import { documented } from '../validation/schema-meta';
import { text } from '../validation/text';
import { CustomerId, InvoiceId, MerchantId, Timestamp, typeIdSchema } from './shared-schemas';

// The payment as the payments, sandbox and pay-page routes all speak of it. It lives outside those
// resources' folders so that no route's bundle carries another resource's schemas.

export const PaymentId = typeIdSchema('pmt');
export const RefundId = typeIdSchema('refund');

/**
 * The listed payment fields, plus the decline of a declined payment (docs/decisions/payments-read-api.md).
 */
export const Payment = documented(
  z.strictObject({
    paymentId: PaymentId,
    merchantId: MerchantId,
    customerId: CustomerId,
    invoiceId: z.nullable(InvoiceId),
    amount: integer({ min: 1, max: maxAmount }),
    amountRefunded: integer({ min: 0, max: maxAmount }),
    currency: z.enum(Currency),
    status: z.enum(PaymentStatus),
    paymentMethodType: z.enum(PaymentMethodType),
    processor: text(),
    processorReferenceId: text(),
    declineCode: documented(z.nullable(text()), {
      description: 'Why the processor declined; null unless declined.',
    }),
    declineMessage: z.nullable(text()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
  { id: 'Payment' },
);

/** A refund, exactly the fields the API reference (docs/openapi.json) gives it. */
export const Refund = documented(
  z.strictObject({
    id: RefundId,
    paymentId: PaymentId,
    amount: integer({ min: -maxAmount, max: maxAmount }),
    currency: z.enum(Currency),
    processorReferenceId: text({ min: 1 }),
    refundedAt: Timestamp,
    paymentStatus: z.enum(PaymentStatus),
    status: documented(z.enum(RefundStatus), {
      description:
        '`succeeded` once the processor refunded it (the sandbox refunds at once); a production refund is ' +
        '`pending` until Stripe confirms it, then `succeeded` (payments.PaymentRefunded) or `failed`. `refundedAt` is when it was asked for.',
    }),
  }),
  { id: 'Refund' },
);

export const PaymentPathParams = z.strictObject({ paymentId: PaymentId });

/**
 * Card or bank details as a payer gives them. Only the shape is checked here; whether they are a
 * valid card or account is the processor's answer (a decline), as a real processor's would be.
 * Spaces and dashes in numbers are allowed and dropped before the processor sees them.
 */
export const PaymentMethodDetails = documented(
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('card'),
      number: text({ min: 1, max: 32 }),
      // Any integer: an impossible month or year is the processor's decline (invalid_expiry).
      expMonth: integer({ min: -9999, max: 9999 }),
      expYear: integer({ min: -9999, max: 99999 }),
      cvc: text({ min: 1, max: 8 }),
    }),
    z.strictObject({
      type: z.literal('bank_account'),
      routingNumber: text({ min: 1, max: 32 }),
      accountNumber: text({ min: 1, max: 32 }),
    }),
  ]),
  { id: 'PaymentMethodDetails' },
);

export type PaymentMethodDetails = z.output<typeof PaymentMethodDetails>;

export const PaymentAmount = integer({ min: 1, max: maxAmount });
