import { eventObjectOf } from './event-object';
import type { EventType } from './invoice';

/**
 * An event as the event log shows it (docs/decisions/the-event-log.md): `data` is exactly the payload its
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

/** The event log's view of a stored event item (or a stream image of one). */
export function eventRecordOf(item: Readonly<Record<string, unknown>>): EventRecord {
  return {
    eventId: String(item.eventId),
    type: item.eventType as EventType,
    createdAt: String(item.createdAt),
    ...eventObjectOf({
      eventType: item.eventType,
      payload: item.payload,
      objectId: item.objectId,
      objectVersion: item.objectVersion,
    }),
    data: (item.payload ?? {}) as Readonly<Record<string, unknown>>,
  };
}
