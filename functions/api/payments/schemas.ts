import { PaymentStatus } from '../../domain/payment';
import { ValidationMessage } from '../../http/validation-messages';
import { enumOf, optional, refine, strictObject } from '../../schema';
import { PaymentId, RefundId } from '../payment-schemas';
import { CustomerId, ListQuery, Timestamp } from '../shared-schemas';

export const ListPaymentsQuery = refine(
  strictObject({
    ...ListQuery,
    status: optional(enumOf(PaymentStatus)),
    customerId: optional(CustomerId),
    createdFrom: optional(Timestamp),
    createdTo: optional(Timestamp),
  }),
  (query) =>
    query.createdFrom === undefined ||
    query.createdTo === undefined ||
    Date.parse(query.createdFrom) <= Date.parse(query.createdTo)
      ? undefined
      : ValidationMessage.notAfter('createdTo'),
  'createdFrom',
);

export const RefundPathParams = strictObject({ paymentId: PaymentId, refundId: RefundId });
export const ListRefundsQuery = strictObject(ListQuery);
