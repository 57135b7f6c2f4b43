import { z } from 'zod';
import { isValidEmail, maxEmailLength } from '../../domain/email';
import { ValidationMessage } from '../../http/validation-messages';
import { ListQuery, MerchantId, Timestamp, typeIdSchema } from '../shared-schemas';

export const CustomerId = typeIdSchema('cust');

/** The spec's email rule (Invoice, additionalNotificationEmails), used for every email field. */
export const EmailAddress = z
  .string()
  .max(maxEmailLength)
  .refine(isValidEmail, { message: ValidationMessage.email })
  .meta({ format: 'email', example: 'ana@example.com' });

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
