import { emailPattern, isValidEmail, maxEmailLength } from '../domain/email';
import { type IdPrefix, typeIdPattern } from '../domain/ids';
import { Currency, maxAmount } from '../domain/money';
import { ErrorCode, GatewayErrorCode } from '../http/errors';
import { ValidationMessage } from '../http/validation-messages';
import {
  annotate,
  array,
  boolean,
  dateTime,
  enumOf,
  integer,
  optional,
  refine,
  type Schema,
  type Shape,
  strictObject,
  string,
  withDefault,
} from '../schema';

/** A TypeID of one prefix; the message names the expected prefix so a merchant can fix the call. */
export function typeIdSchema(prefix: IdPrefix) {
  return annotate(
    string({ pattern: typeIdPattern(prefix), patternMessage: ValidationMessage.typeId(prefix) }),
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

export const Timestamp = annotate(dateTime(), { description: 'ISO 8601 UTC date-time ending in Z' });

/** The spec's email rule (Invoice, additionalNotificationEmails), used for every email field. */
export const EmailAddress = annotate(
  refine(
    string({ max: maxEmailLength }),
    (email) => (isValidEmail(email) ? undefined : ValidationMessage.email),
    { keywords: { pattern: emailPattern } },
  ),
  { format: 'email', example: 'ana@example.com' },
);

export const Money = annotate(
  strictObject({ amount: integer({ min: 0, max: maxAmount }), currency: enumOf(Currency) }),
  { id: 'Money' },
);

/** Query of every list route (DESIGN §3): limit 1–100, default 20, opaque signed cursor. */
export const ListQuery = {
  merchantId: MerchantId,
  limit: withDefault(integer({ min: 1, max: 100, coerce: true }), 20),
  cursor: optional(string({ min: 1, max: 2048 })),
} satisfies Shape;

/**
 * An inclusive created range of a list query. Two parameters compared have no JSON Schema keyword:
 * the rule is stated on the first, and checked by `createdRangeProblem` on the whole query.
 */
export const CreatedRange = {
  createdFrom: optional(
    annotate(Timestamp, { description: 'ISO 8601 UTC date-time ending in Z; not after createdTo.' }),
  ),
  createdTo: optional(Timestamp),
} satisfies Shape;

/** A createdFrom later than createdTo, said on createdFrom (`refine(…, createdRangeProblem, createdRangeAt)`). */
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

export const Page = strictObject({
  hasMore: boolean(),
  nextCursor: optional(string()),
});

export function listResponse<T extends Schema>(item: T) {
  return strictObject({ items: array(item), page: Page });
}

export const ErrorResponse = annotate(
  strictObject({
    error: strictObject({
      code: enumOf([...(Object.keys(ErrorCode) as ErrorCode[]), ...GatewayErrorCode]),
      message: string(),
      requestId: optional(string()),
      details: optional(array(strictObject({ path: string(), message: string() }), { max: 100 })),
    }),
  }),
  { id: 'Error' },
);

/** Bodies that carry only the merchant scope (DESIGN §4, lifecycle routes). */
export const MerchantScopeBody = strictObject({ merchantId: MerchantId });

/** Query of the routes that read one item: only the merchant scope. */
export const MerchantQuery = strictObject({ merchantId: MerchantId });
