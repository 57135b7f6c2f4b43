import * as z from 'zod/mini';
import { PaymentStatus } from '../../domain/payment';
import { rule } from '../../validation/rule';
import { PaymentId, RefundId } from '../payment-schemas';
import { CreatedRange, CustomerId, createdRangeAt, createdRangeProblem, ListQuery } from '../shared-schemas';

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
