import { PaymentMethodType } from '../domain/invoice';
import { Currency, maxAmount } from '../domain/money';
import { PaymentStatus } from '../domain/payment';
import {
  annotate,
  discriminatedUnion,
  enumOf,
  type Infer,
  integer,
  literal,
  nullable,
  strictObject,
  string,
} from '../schema';
import { CustomerId, InvoiceId, MerchantId, Timestamp, typeIdSchema } from './shared-schemas';

// The payment as the payments, sandbox and pay-page routes all speak of it. It lives outside those
// resources' folders so that no route's bundle carries another resource's schemas.

export const PaymentId = typeIdSchema('pmt');
export const RefundId = typeIdSchema('refund');

/** DESIGN §4 "Payments listing", plus the decline of a declined payment (docs/decisions.md). */
export const Payment = annotate(
  strictObject({
    paymentId: PaymentId,
    merchantId: MerchantId,
    customerId: CustomerId,
    invoiceId: nullable(InvoiceId),
    amount: integer({ min: 1, max: maxAmount }),
    amountRefunded: integer({ min: 0, max: maxAmount }),
    currency: enumOf(Currency),
    status: enumOf(PaymentStatus),
    paymentMethodType: enumOf(PaymentMethodType),
    processor: string(),
    processorReferenceId: string(),
    declineCode: annotate(nullable(string()), {
      description: 'Why the processor declined; null unless declined.',
    }),
    declineMessage: nullable(string()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
  { id: 'Payment' },
);

/** Spec "Refund": exactly its fields. */
export const Refund = annotate(
  strictObject({
    id: RefundId,
    paymentId: PaymentId,
    amount: integer({ min: -maxAmount, max: maxAmount }),
    currency: enumOf(Currency),
    processorReferenceId: string({ min: 1 }),
    refundedAt: Timestamp,
    paymentStatus: enumOf(PaymentStatus),
  }),
  { id: 'Refund' },
);

export const PaymentPathParams = strictObject({ paymentId: PaymentId });

/**
 * Card or bank details as a payer gives them. Only the shape is checked here; whether they are a
 * valid card or account is the processor's answer (a decline), as a real processor's would be.
 * Spaces and dashes in numbers are allowed and dropped before the processor sees them.
 */
export const PaymentMethodDetails = annotate(
  discriminatedUnion('type', [
    strictObject({
      type: literal('card'),
      number: string({ min: 1, max: 32 }),
      // Any integer: an impossible month or year is the processor's decline (invalid_expiry).
      expMonth: integer({ min: -9999, max: 9999 }),
      expYear: integer({ min: -9999, max: 99999 }),
      cvc: string({ min: 1, max: 8 }),
    }),
    strictObject({
      type: literal('bank_account'),
      routingNumber: string({ min: 1, max: 32 }),
      accountNumber: string({ min: 1, max: 32 }),
    }),
  ]),
  { id: 'PaymentMethodDetails' },
);

export type PaymentMethodDetails = Infer<typeof PaymentMethodDetails>;

export const PaymentAmount = integer({ min: 1, max: maxAmount });
