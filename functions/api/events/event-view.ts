import { eventRecordOf } from '../../domain/event-record';
import { isExpired } from '../../domain/retention';

/**
 * The event of a stored item as the caller may see it: undefined for another merchant's event and
 * for one past its retention, which DynamoDB may not have deleted yet (404 for both:
 * docs/decisions/the-event-log.md).
 */
export function visibleEvent(item: Record<string, unknown> | undefined, merchantId: string, now: Date) {
  if (item === undefined || item.merchantId !== merchantId || isExpired(item, now)) return undefined;
  return eventRecordOf(item);
}
