import { z } from 'zod';
import { type IdPrefix, typeIdPattern } from '../domain/ids';
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

export const Timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC date-time ending in Z' });

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
