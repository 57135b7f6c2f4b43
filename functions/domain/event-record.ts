import type { EventType } from './invoice';

/**
 * An event as the event log shows it (DESIGN §7 "Event log"): `data` is exactly the payload its
 * deliveries carry as their body's `data`.
 */
export interface EventRecord {
  readonly eventId: string;
  readonly type: EventType;
  readonly createdAt: string;
  readonly objectId: string | null;
  readonly objectVersion: number | null;
  readonly data: Readonly<Record<string, unknown>>;
}

/** The payload fields that name the object an event is about, in the order they are tried. */
const objectIdFields = ['invoiceId', 'paymentId', 'payoutId'] as const;

/**
 * The invoice, payment or payout an event is about: the item's own `objectId` when it has one, else
 * the first of the payload's `invoiceId`, `paymentId`, `payoutId` (events written before the field
 * existed; a refund or a return names its payment). Null when none is there.
 */
export function eventObjectId(item: Readonly<Record<string, unknown>>): string | null {
  if (typeof item.objectId === 'string') return item.objectId;
  const payload = item.payload;
  if (typeof payload !== 'object' || payload === null) return null;
  for (const field of objectIdFields) {
    const value = (payload as Record<string, unknown>)[field];
    if (typeof value === 'string') return value;
  }
  return null;
}

/** A number the item carries (`objectVersion`, a delivery's `sequence`), or null when it has none. */
export function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The event log's view of a stored event item (or a stream image of one). */
export function eventRecordOf(item: Readonly<Record<string, unknown>>): EventRecord {
  return {
    eventId: String(item.eventId),
    type: item.eventType as EventType,
    createdAt: String(item.createdAt),
    objectId: eventObjectId(item),
    objectVersion: numberOrNull(item.objectVersion),
    data: (item.payload ?? {}) as Readonly<Record<string, unknown>>,
  };
}

/** What a delivery item adds to the delivery record in the event's deliveries, null when absent. */
export function deliveryOrderFields(item: Readonly<Record<string, unknown>>) {
  return { sequence: numberOrNull(item.sequence), objectVersion: numberOrNull(item.objectVersion) };
}
