import { PaymentStatus } from '../../domain/payment';
import { ValidationMessage } from '../../http/validation-messages';
import { annotate, enumOf, optional, refine, strictObject } from '../../schema';
import { PaymentId, RefundId } from '../payment-schemas';
import { CustomerId, ListQuery, Timestamp } from '../shared-schemas';

export const ListPaymentsQuery = refine(
  strictObject({
    ...ListQuery,
    status: optional(enumOf(PaymentStatus)),
    customerId: optional(CustomerId),
    // Two parameters compared have no JSON Schema keyword: the rule is stated on the first.
    createdFrom: optional(
      annotate(Timestamp, { description: 'ISO 8601 UTC date-time ending in Z; not after createdTo.' }),
    ),
    createdTo: optional(Timestamp),
  }),
  (query) =>
    query.createdFrom === undefined ||
    query.createdTo === undefined ||
    Date.parse(query.createdFrom) <= Date.parse(query.createdTo)
      ? undefined
      : ValidationMessage.notAfter('createdTo'),
  { at: 'createdFrom' },
);

export const RefundPathParams = strictObject({ paymentId: PaymentId, refundId: RefundId });
export const ListRefundsQuery = strictObject(ListQuery);
