import { TypeID, typeid } from 'typeid-js';

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

/** True when `value` is a well-formed TypeID carrying exactly `prefix`. */
export function isTypeId(value: string, prefix: IdPrefix): boolean {
  try {
    return TypeID.fromString(value, prefix).getType() === prefix;
  } catch {
    return false;
  }
}
