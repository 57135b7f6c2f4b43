import { createHash, randomBytes } from 'node:crypto';
import { typeIdBytes, typeIdOfBytes } from './typeid-bits';

/**
 * TypeID prefixes: the interface's, plus ours (evt_, po_, ret_, pmi_, pacct_) for resources it leaves
 * unnamed.
 */
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
  portalSession: 'psn',
  email: 'eml',
} as const;

export type IdPrefix = (typeof IdPrefix)[keyof typeof IdPrefix];

/** Where a minter reads the time and its random bits. */
export interface IdSources {
  /** Unix milliseconds, as `Date.now()`. */
  readonly now: () => number;
  /** `size` random bytes, as `crypto.randomBytes`. */
  readonly randomBytes: (size: number) => Uint8Array;
}

/** Mints ids of any prefix, each after the one before in time order (see `idMinter`). */
export type IdMinter = (prefix: IdPrefix) => string;

/**
 * A minter of time-ordered TypeIDs: UUIDv7s counting up within the clock's millisecond, never past its
 * latest reading, from sources of its own (docs/decisions/write-shards-of-a-merchant.md).
 */
export function idMinter(sources: IdSources): IdMinter {
  /** The millisecond and 12-bit counter of the last id this minter minted (none yet: before 1970). */
  let last = { milliseconds: -1, counter: 0 };
  return (prefix) => {
    const bytes = Uint8Array.from(sources.randomBytes(16));
    let milliseconds = sources.now();
    let counter = (((bytes[6] ?? 0) & 0x0f) << 8) | (bytes[7] ?? 0);
    if (milliseconds <= last.milliseconds) {
      if (last.counter < 0xfff) [milliseconds, counter] = [last.milliseconds, last.counter + 1];
      else milliseconds = clockPast(sources.now, last.milliseconds);
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
  };
}

/**
 * The clock's first reading past `milliseconds`, reading it until it comes: the rest of a
 * millisecond on a clock that keeps time, and only for a minter that used all 4,096 counts of one.
 */
function clockPast(now: () => number, milliseconds: number): number {
  let reading = now();
  while (reading <= milliseconds) reading = now();
  return reading;
}

/** The process's minter: the system clock and crypto's random bytes. */
const processMinter = idMinter({ now: Date.now, randomBytes });

/**
 * A new time-ordered TypeID with the given prefix, from the process's one minter, so every id a
 * process mints sorts after the ones it minted before (`idMinter`).
 */
export function newId(prefix: IdPrefix): string {
  return processMinter(prefix);
}

/**
 * The id of what an event makes for one target (a delivery to an endpoint, an email to an
 * address): the event's millisecond, then bits of a hash of both. The same event and target
 * always give the same id, so a replayed event makes nothing twice, and the ids of an event's
 * items sort with the event.
 */
export function idDerivedFromEvent(prefix: IdPrefix, eventId: string, target: string): string {
  const eventBytes = typeIdBytes(eventId);
  const digest = createHash('sha256').update(`${eventId}|${target}`).digest();
  const bytes = new Uint8Array(16);
  bytes.set(eventBytes.subarray(0, 6), 0);
  bytes.set(digest.subarray(0, 10), 6);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70; // UUID version 7
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 9562 variant
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
