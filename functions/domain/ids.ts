import { typeid } from 'typeid-js';

/** TypeID prefixes: the spec's, plus DESIGN §3's for resources the spec leaves unnamed. */
export const IdPrefix = {
  merchant: 'mer',
  product: 'prod',
  price: 'price',
  customer: 'cust',
  invoice: 'inv',
  payment: 'pmt',
  refund: 'refund',
  webhookEndpoint: 'whk',
  webhookDelivery: 'whkdel',
  event: 'evt',
  payout: 'po',
  return: 'ret',
  paymentInstrument: 'pmi',
  payoutAccount: 'pacct',
} as const;

export type IdPrefix = (typeof IdPrefix)[keyof typeof IdPrefix];

/** A new time-ordered TypeID with the given prefix. */
export function newId(prefix: IdPrefix): string {
  return typeid(prefix).toString();
}

/** A TypeID of `prefix`: 26 lowercase Crockford base32 characters whose first is 0–7 (128 bits). */
export function typeIdPattern(prefix: IdPrefix): RegExp {
  return new RegExp(`^${prefix}_[0-7][0-9a-hjkmnp-tv-z]{25}$`);
}

/** True when `value` is a well-formed TypeID carrying exactly `prefix`. */
export function isTypeId(value: string, prefix: IdPrefix): boolean {
  return typeIdPattern(prefix).test(value);
}
