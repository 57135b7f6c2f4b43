import * as z from 'zod/mini';
import { PaymentStatus } from '../../domain/payment';
import { rule } from '../../validation/rule';
import { PaymentAmount, PaymentId, RefundId } from '../payment-schemas';
import {
  CreatedRange,
  CustomerId,
  createdRangeAt,
  createdRangeProblem,
  ListQuery,
  MerchantId,
} from '../shared-schemas';

export const ListPaymentsQuery = rule(
  z.strictObject({
    ...ListQuery,
    status: z.optional(z.enum(PaymentStatus)),
    customerId: z.optional(CustomerId),
    ...CreatedRange,
  }),
  createdRangeProblem,
  createdRangeAt,
);

export const RefundPathParams = z.strictObject({ paymentId: PaymentId, refundId: RefundId });
export const ListRefundsQuery = z.strictObject(ListQuery);

export const CreateRefundBody = z.strictObject({
  merchantId: MerchantId,
  /** Default: everything not refunded yet (nor pending at the processor). */
  amount: z.optional(PaymentAmount),
});
