import { randomBytes } from 'node:crypto';
import { typeIdBytes, typeIdOfBytes } from './typeid-bits';

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
  webhookRecovery: 'whkrec',
  event: 'evt',
  payout: 'po',
  return: 'ret',
  paymentInstrument: 'pmi',
  payoutAccount: 'pacct',
} as const;

export type IdPrefix = (typeof IdPrefix)[keyof typeof IdPrefix];

/** The millisecond and 12-bit counter of the last id minted in this process. */
let last = { milliseconds: 0, counter: 0 };

/**
 * A new time-ordered TypeID with the given prefix: a UUIDv7 (RFC 9562) of the current millisecond.
 * Within one millisecond the 12 bits after the version count up from a random start (the RFC's
 * method 1), so ids minted one after another in a process sort in that order. The bytes are ours,
 * not typeid-js's generator: see docs/decisions.md "Write shards of a merchant".
 */
export function newId(prefix: IdPrefix): string {
  const bytes = randomBytes(16);
  let milliseconds = Date.now();
  let counter = (((bytes[6] ?? 0) & 0x0f) << 8) | (bytes[7] ?? 0);
  if (milliseconds <= last.milliseconds) {
    milliseconds = last.milliseconds;
    counter = last.counter + 1;
    // The counter ran out within the millisecond: borrow the next one rather than go back.
    if (counter > 0xfff) [milliseconds, counter] = [milliseconds + 1, 0];
  }
  last = { milliseconds, counter };
  let time = milliseconds;
  for (let index = 5; index >= 0; index -= 1) {
    bytes[index] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return typeIdOfBytes(prefix, bytes);
}

/**
 * A TypeID of `prefix`: 26 lowercase Crockford base32 characters whose first is 0–7 (128 bits). The
 * same strings `isTypeId` accepts, as a pattern for schemas and the OpenAPI document.
 */
export function typeIdPattern(prefix: IdPrefix): RegExp {
  return new RegExp(`^${prefix}_[0-7][0-9a-hjkmnp-tv-z]{25}$`);
}

/**
 * True when `value` is a well-formed TypeID carrying exactly `prefix`: typeid-js decodes its suffix,
 * and writes the same id back under `prefix`.
 */
export function isTypeId(value: string, prefix: IdPrefix): boolean {
  try {
    return typeIdOfBytes(prefix, typeIdBytes(value)) === value;
  } catch {
    return false;
  }
}
