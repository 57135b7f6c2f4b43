import { z } from 'zod';
import { CustomerId, EmailAddress, ListQuery, MerchantId, Timestamp } from '../shared-schemas';

export const Customer = z
  .strictObject({
    customerId: CustomerId,
    merchantId: MerchantId,
    name: z.string(),
    email: z.string(),
    createdAt: Timestamp,
  })
  .meta({ id: 'Customer' });

export const CreateCustomerBody = z.strictObject({
  merchantId: MerchantId,
  name: z.string().trim().min(1).max(200),
  email: EmailAddress,
});

export const CustomerPathParams = z.strictObject({ customerId: CustomerId });

export const ListCustomersQuery = z.strictObject(ListQuery);
