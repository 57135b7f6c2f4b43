import { annotate, strictObject, string } from '../../schema';
import { CustomerId, EmailAddress, ListQuery, MerchantId, Timestamp } from '../shared-schemas';

export const Customer = annotate(
  strictObject({
    customerId: CustomerId,
    merchantId: MerchantId,
    name: string(),
    email: string(),
    createdAt: Timestamp,
  }),
  { id: 'Customer' },
);

export const CreateCustomerBody = strictObject({
  merchantId: MerchantId,
  name: string({ trim: true, min: 1, max: 200 }),
  email: EmailAddress,
});

export const CustomerPathParams = strictObject({ customerId: CustomerId });

export const ListCustomersQuery = strictObject(ListQuery);
