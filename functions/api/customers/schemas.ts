import * as z from 'zod/mini';
import { documented } from '../../validation/schema-meta';
import { text } from '../../validation/text';
import { CustomerId, EmailAddress, ListQuery, MerchantId, Timestamp } from '../shared-schemas';

export const Customer = documented(
  z.strictObject({
    customerId: CustomerId,
    merchantId: MerchantId,
    name: text(),
    email: text(),
    createdAt: Timestamp,
  }),
  { id: 'Customer' },
);

export const CreateCustomerBody = z.strictObject({
  merchantId: MerchantId,
  name: text({ trim: true, min: 1, max: 200 }),
  email: EmailAddress,
});

export const CustomerPathParams = z.strictObject({ customerId: CustomerId });

export const ListCustomersQuery = z.strictObject(ListQuery);
