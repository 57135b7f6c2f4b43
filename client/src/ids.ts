/**
 * An id of one kind: a TypeID string (`inv_01h455vb4pex5vsknk084sn02q`) that the type system keeps
 * apart from ids of other kinds, so an invoice id cannot be passed where a customer id is expected.
 * Ids come typed in every response; `parseId` types one read from elsewhere, such as a database.
 */
export type Id<Kind extends string> = string & { readonly __idKind: Kind };

export type MerchantId = Id<'mer'>;
export type ProductId = Id<'prod'>;
export type PriceId = Id<'price'>;
export type CustomerId = Id<'cust'>;
export type InvoiceId = Id<'inv'>;
export type InvoiceEmailId = Id<'eml'>;
export type PaymentId = Id<'pmt'>;
export type RefundId = Id<'refund'>;
export type ReturnId = Id<'ret'>;
export type PayoutId = Id<'po'>;
export type PayoutAccountId = Id<'pacct'>;
export type EventId = Id<'evt'>;
export type WebhookEndpointId = Id<'whk'>;
export type WebhookDeliveryId = Id<'whkdel'>;
export type WebhookRecoveryId = Id<'whkrec'>;
export type PortalSessionId = Id<'psn'>;

/** The TypeID suffix: 26 base32 characters, the first at most 7 (docs/openapi.json's id patterns). */
const suffix = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

/** True when `value` is a well-formed id of `kind` (its prefix, e.g. `inv`). */
export function isId<Kind extends string>(kind: Kind, value: unknown): value is Id<Kind> {
  return (
    typeof value === 'string' && value.startsWith(`${kind}_`) && suffix.test(value.slice(kind.length + 1))
  );
}

/** `value` typed as an id of `kind`; a TypeError when it is not one. */
export function parseId<Kind extends string>(kind: Kind, value: string): Id<Kind> {
  if (!isId(kind, value)) throw new TypeError(`${JSON.stringify(value)} is not a ${kind}_ id`);
  return value;
}
