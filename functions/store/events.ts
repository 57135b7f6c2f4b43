import type { DomainEvent } from '../domain/invoice';
import { tableName } from './client';
import { EntityType, keys } from './keys';

/**
 * An event of the outbox (DESIGN §1): written in the same transaction as the change it reports.
 * The item also names the API request that wrote it, beside (never inside) the payload a delivery
 * sends, so the router's log line links the request to the event's deliveries.
 */
export function buildPutEvent(event: DomainEvent, requestId: string) {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.event(event.eventId), entityType: EntityType.event, ...event, requestId },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}
