import { z } from 'zod';
import { PaymentMethodType } from '../domain/invoice';
import { Currency, maxAmount } from '../domain/money';
import { PaymentStatus } from '../domain/payment';
import { CustomerId, InvoiceId, MerchantId, Timestamp, typeIdSchema } from './shared-schemas';

// The payment as the payments, sandbox and pay-page routes all speak of it. It lives outside those
// resources' folders so that no route's bundle carries another resource's schemas.

export const PaymentId = typeIdSchema('pmt');
export const RefundId = typeIdSchema('refund');

/** DESIGN §4 "Payments listing", plus the decline of a declined payment (docs/decisions.md). */
export const Payment = z
  .strictObject({
    paymentId: PaymentId,
    merchantId: MerchantId,
    customerId: CustomerId,
    invoiceId: InvoiceId.nullable(),
    amount: z.number().int().min(1).max(maxAmount),
    amountRefunded: z.number().int().min(0).max(maxAmount),
    currency: z.enum(Currency),
    status: z.enum(PaymentStatus),
    paymentMethodType: z.enum(PaymentMethodType),
    processor: z.string(),
    processorReferenceId: z.string(),
    declineCode: z
      .string()
      .nullable()
      .meta({ description: 'Why the processor declined; null unless declined.' }),
    declineMessage: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Payment' });

/** Spec "Refund": exactly its fields. */
export const Refund = z
  .strictObject({
    id: RefundId,
    paymentId: PaymentId,
    amount: z.number().int().min(-maxAmount).max(maxAmount),
    currency: z.enum(Currency),
    processorReferenceId: z.string().min(1),
    refundedAt: Timestamp,
    paymentStatus: z.enum(PaymentStatus),
  })
  .meta({ id: 'Refund' });

export const PaymentPathParams = z.strictObject({ paymentId: PaymentId });

/**
 * Card or bank details as a payer gives them. Only the shape is checked here; whether they are a
 * valid card or account is the processor's answer (a decline), as a real processor's would be.
 * Spaces and dashes in numbers are allowed and dropped before the processor sees them.
 */
export const PaymentMethodDetails = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('card'),
      number: z.string().min(1).max(32),
      // Any integer: an impossible month or year is the processor's decline (invalid_expiry).
      expMonth: z.number().int().min(-9999).max(9999),
      expYear: z.number().int().min(-9999).max(99999),
      cvc: z.string().min(1).max(8),
    }),
    z.strictObject({
      type: z.literal('bank_account'),
      routingNumber: z.string().min(1).max(32),
      accountNumber: z.string().min(1).max(32),
    }),
  ])
  .meta({ id: 'PaymentMethodDetails' });

export type PaymentMethodDetails = z.output<typeof PaymentMethodDetails>;

export const PaymentAmount = z.number().int().min(1).max(maxAmount);
