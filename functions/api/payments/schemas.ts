import { PaymentStatus } from '../../domain/payment';
import { enumOf, optional, refine, strictObject } from '../../schema';
import { PaymentId, RefundId } from '../payment-schemas';
import { CreatedRange, CustomerId, createdRangeAt, createdRangeProblem, ListQuery } from '../shared-schemas';

export const ListPaymentsQuery = refine(
  strictObject({
    ...ListQuery,
    status: optional(enumOf(PaymentStatus)),
    customerId: optional(CustomerId),
    ...CreatedRange,
  }),
  createdRangeProblem,
  createdRangeAt,
);

export const RefundPathParams = strictObject({ paymentId: PaymentId, refundId: RefundId });
export const ListRefundsQuery = strictObject(ListQuery);
