import { typeIdMilliseconds } from './id-time-bounds';

/** Events, and their deliveries with every attempt, are kept this long (docs/decisions/the-event-log.md). */
export const retentionDays = 90;

const retentionSeconds = retentionDays * 24 * 60 * 60;

/**
 * When an event and each of its deliveries expire, in epoch seconds (the table's `ttl`): 90 days
 * after the event's id was minted. Derived from the event id alone, so the event, its first
 * deliveries, its redeliveries and every later rewrite of a delivery carry the same instant.
 */
export function expiresAtOfEvent(eventId: string): number {
  return Math.floor(typeIdMilliseconds(eventId) / 1000) + retentionSeconds;
}

/**
 * True once an item's `ttl` has passed. DynamoDB deletes expired items only eventually (often days
 * later), so every reader checks; an item without a `ttl` never expires.
 */
export function isExpired(item: Readonly<Record<string, unknown>>, now: Date): boolean {
  return typeof item.ttl === 'number' && item.ttl * 1000 <= now.getTime();
}
