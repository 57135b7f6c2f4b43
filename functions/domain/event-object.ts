import { EventType } from './invoice';

/** The object a stored event reports a change of, and that object's version after the change. */
export interface EventObject {
  readonly objectId: string | null;
  /** null for an event written before versions were kept: no version is known for it. */
  readonly objectVersion: number | null;
}

/** Which payload field names the object, per event type: what an event written before objectId was kept falls back to. */
const objectIdField: Record<EventType, string> = {
  [EventType.invoiceSent]: 'invoiceId',
  [EventType.invoicePaid]: 'invoiceId',
  [EventType.paymentCreated]: 'paymentId',
  [EventType.paymentDeclined]: 'paymentId',
  [EventType.paymentRefunded]: 'paymentId',
  [EventType.paymentReturned]: 'paymentId',
  [EventType.payoutCreated]: 'payoutId',
};

/**
 * The object of a stored event item: the `objectId` and `objectVersion` written beside its payload.
 * An event written before they were kept has neither: its object is the payload's invoiceId,
 * paymentId or payoutId, and its version is unknown (null), never guessed
 * (docs/decisions/delivery-sequence-numbers-and-object-versions.md).
 */
export function eventObjectOf(item: {
  readonly eventType: unknown;
  readonly payload?: unknown;
  readonly objectId?: unknown;
  readonly objectVersion?: unknown;
}): EventObject {
  const objectVersion = Number.isSafeInteger(item.objectVersion) ? (item.objectVersion as number) : null;
  if (typeof item.objectId === 'string') return { objectId: item.objectId, objectVersion };
  const field = objectIdField[item.eventType as EventType];
  const payload = (typeof item.payload === 'object' && item.payload !== null ? item.payload : {}) as Record<
    string,
    unknown
  >;
  const fromPayload = field === undefined ? undefined : payload[field];
  return { objectId: typeof fromPayload === 'string' ? fromPayload : null, objectVersion };
}
