import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client';
import { EntityType } from './keys';
import { pageOf, type QueryPage, queryUpTo } from './query-page';

/**
 * The newest-first Query of an event's partition of the event-deliveries index (GSI5, keyed by
 * `eventId` and `createdAt`): its deliveries and the event's own entry, which is at least as old
 * as any of them. An index is read eventually consistent: a delivery written a moment ago may show
 * a moment later.
 */
export function buildEventDeliveriesQuery(
  eventId: string,
  startKey: Record<string, unknown> | undefined,
): QueryCommandInput {
  return {
    TableName: tableName(),
    IndexName: 'GSI5',
    KeyConditionExpression: 'eventId = :eventId',
    // A test delivery's `evt_` id is in no event log: its partition lists nothing, so it is a 404.
    FilterExpression: 'attribute_not_exists(test)',
    ExpressionAttributeValues: { ':eventId': eventId },
    ScanIndexForward: false,
    ExclusiveStartKey: startKey,
  };
}

/** The keys a page of GSI5 resumes from: the index's and the table's. */
const eventDeliveriesKeyAttributes = ['eventId', 'createdAt', 'PK', 'SK'] as const;

/** One page of an event's deliveries, and the event's entry when the Query reached it. */
export interface EventDeliveriesPage {
  /** The event's index entry (merchant, expiry), whoever's and however old, when read. */
  readonly event: Record<string, unknown> | undefined;
  /** The page's deliveries as the index projects them, newest first; their last key is the cursor. */
  readonly deliveries: QueryPage;
}

/**
 * One page of an event's deliveries (to every endpoint, and redeliveries), newest first, in one
 * Query of the event-deliveries index. The event's entry sorts last (it is the oldest), so it comes
 * with the page that reaches the end, and with any first page of an event without deliveries. The
 * caller checks merchant and expiry on the deliveries, which carry both, and on the event.
 */
export async function queryEventDeliveries(
  eventId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
): Promise<EventDeliveriesPage> {
  // `limit + 1` deliveries make `hasMore` exact; the event's entry may be among what is read.
  const found = await queryUpTo(buildEventDeliveriesQuery(eventId, startKey), limit + 2);
  const event = found.find((item) => item.entityType === EntityType.event);
  const deliveries = pageOf(
    found.filter((item) => item !== event),
    { limit, keyAttributes: eventDeliveriesKeyAttributes },
  );
  return { event, deliveries };
}
