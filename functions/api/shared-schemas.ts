import { z } from 'zod';
import { isValidEmail, maxEmailLength } from '../domain/email';
import { type IdPrefix, typeIdPattern } from '../domain/ids';
import { Currency, maxAmount } from '../domain/money';
import { ErrorCode } from '../http/errors';
import { ValidationMessage } from '../http/validation-messages';

/** A TypeID of one prefix; the message names the expected prefix so a merchant can fix the call. */
export function typeIdSchema(prefix: IdPrefix) {
  return z
    .string()
    .regex(typeIdPattern(prefix), { message: ValidationMessage.typeId(prefix) })
    .meta({ example: `${prefix}_01h455vb4pex5vsknk084sn02q` });
}

export const MerchantId = typeIdSchema('mer');

// The ids one resource names in another's fields; each resource's own other ids stay beside it.
export const ProductId = typeIdSchema('prod');
export const PriceId = typeIdSchema('price');
export const CustomerId = typeIdSchema('cust');
export const InvoiceId = typeIdSchema('inv');

export const Timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC date-time ending in Z' });

/** The spec's email rule (Invoice, additionalNotificationEmails), used for every email field. */
export const EmailAddress = z
  .string()
  .max(maxEmailLength)
  .refine(isValidEmail, { message: ValidationMessage.email })
  .meta({ format: 'email', example: 'ana@example.com' });

export const Money = z
  .strictObject({ amount: z.number().int().min(0).max(maxAmount), currency: z.enum(Currency) })
  .meta({ id: 'Money' });

/** Query of every list route (DESIGN §3): limit 1–100, default 20, opaque signed cursor. */
export const ListQuery = {
  merchantId: MerchantId,
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(2048).optional(),
};

export const Page = z.strictObject({
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
});

export function listResponse<T extends z.ZodType>(item: T) {
  return z.strictObject({ items: z.array(item), page: Page });
}

export const ErrorResponse = z
  .strictObject({
    error: z.strictObject({
      code: z.enum(Object.keys(ErrorCode) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      requestId: z.string().optional(),
      details: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: 'Error' });

/** Bodies that carry only the merchant scope (DESIGN §4, lifecycle routes). */
export const MerchantScopeBody = z.strictObject({ merchantId: MerchantId });

/** Query of the routes that read one item: only the merchant scope. */
export const MerchantQuery = z.strictObject({ merchantId: MerchantId });
