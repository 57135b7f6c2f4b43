import { z } from 'zod';
import { PaymentStatus } from '../../domain/payment';
import { ValidationMessage } from '../../http/validation-messages';
import { PaymentId, RefundId } from '../payment-schemas';
import { CustomerId, ListQuery, Timestamp } from '../shared-schemas';

export const ListPaymentsQuery = z
  .strictObject({
    ...ListQuery,
    status: z.enum(PaymentStatus).optional(),
    customerId: CustomerId.optional(),
    createdFrom: Timestamp.optional(),
    createdTo: Timestamp.optional(),
  })
  .refine(
    (query) =>
      query.createdFrom === undefined ||
      query.createdTo === undefined ||
      Date.parse(query.createdFrom) <= Date.parse(query.createdTo),
    { message: ValidationMessage.notAfter('createdTo'), path: ['createdFrom'] },
  );

export const RefundPathParams = z.strictObject({ paymentId: PaymentId, refundId: RefundId });
export const ListRefundsQuery = z.strictObject(ListQuery);
