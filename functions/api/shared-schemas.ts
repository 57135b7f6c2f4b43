import * as z from 'zod/mini';
import { emailPattern, isValidEmail, maxEmailLength } from '../domain/email';
import { type IdPrefix, typeIdPattern } from '../domain/ids';
import { Currency, maxAmount } from '../domain/money';
import { ErrorCode, GatewayErrorCode } from '../http/errors';
import { ValidationMessage } from '../http/validation-messages';
import { dateTime } from '../validation/date-time';
import { integer } from '../validation/integer';
import { list } from '../validation/list';
import { rule } from '../validation/rule';
import { documented } from '../validation/schema-meta';
import { text } from '../validation/text';

/** A TypeID of one prefix; the message names the expected prefix so a merchant can fix the call. */
export function typeIdSchema(prefix: IdPrefix) {
  return documented(
    text({ pattern: typeIdPattern(prefix), patternMessage: ValidationMessage.typeId(prefix) }),
    {
      example: `${prefix}_01h455vb4pex5vsknk084sn02q`,
    },
  );
}

export const MerchantId = typeIdSchema('mer');

// The ids one resource names in another's fields; each resource's own other ids stay beside it.
export const ProductId = typeIdSchema('prod');
export const PriceId = typeIdSchema('price');
export const CustomerId = typeIdSchema('cust');
export const InvoiceId = typeIdSchema('inv');

export const Timestamp = documented(dateTime(), { description: 'ISO 8601 UTC date-time ending in Z' });

/** The interface's email rule (docs/decisions/customers-and-prices.md), used for every email field. */
export const EmailAddress = documented(
  rule(
    text({ max: maxEmailLength }),
    (email) => (isValidEmail(email) ? undefined : ValidationMessage.email),
    {
      keywords: { pattern: emailPattern.source },
    },
  ),
  { format: 'email', example: 'ana@example.com' },
);

export const Money = documented(
  z.strictObject({ amount: integer({ min: 0, max: maxAmount }), currency: z.enum(Currency) }),
  { id: 'Money' },
);

/**
 * Query of every list route (docs/architecture.md#conventions-for-every-endpoint): limit 1–100, default 20,
 * opaque signed cursor.
 */
export const ListQuery = {
  merchantId: MerchantId,
  limit: z._default(integer({ min: 1, max: 100, coerce: true }), 20),
  cursor: z.optional(text({ min: 1, max: 2048 })),
};

/**
 * An inclusive created range of a list query. Two parameters compared have no JSON Schema keyword:
 * the rule is stated on the first, and checked by `createdRangeProblem` on the whole query.
 */
export const CreatedRange = {
  createdFrom: z.optional(
    documented(Timestamp, { description: 'ISO 8601 UTC date-time ending in Z; not after createdTo.' }),
  ),
  createdTo: z.optional(Timestamp),
};

/** A createdFrom later than createdTo, said on createdFrom (`rule(…, createdRangeProblem, createdRangeAt)`). */
export function createdRangeProblem(query: {
  readonly createdFrom?: string | undefined;
  readonly createdTo?: string | undefined;
}): string | undefined {
  return query.createdFrom === undefined ||
    query.createdTo === undefined ||
    Date.parse(query.createdFrom) <= Date.parse(query.createdTo)
    ? undefined
    : ValidationMessage.notAfter('createdTo');
}

export const createdRangeAt = { at: 'createdFrom' } as const;

export const Page = z.strictObject({
  hasMore: z.boolean(),
  nextCursor: z.optional(text()),
});

export function listResponse<T extends z.ZodMiniType>(item: T) {
  return z.strictObject({ items: z.array(item), page: Page });
}

export const ErrorResponse = documented(
  z.strictObject({
    error: z.strictObject({
      code: z.enum([...(Object.keys(ErrorCode) as ErrorCode[]), ...GatewayErrorCode]),
      message: text(),
      requestId: z.optional(text()),
      details: z.optional(list(z.strictObject({ path: text(), message: text() }), { max: 100 })),
    }),
  }),
  { id: 'Error' },
);

/** Bodies that carry only the merchant scope (the lifecycle routes: docs/decisions/invoice-lifecycle.md). */
export const MerchantScopeBody = z.strictObject({ merchantId: MerchantId });

/** Query of the routes that read one item: only the merchant scope. */
export const MerchantQuery = z.strictObject({ merchantId: MerchantId });
