import type { DomainEvent } from '../domain/invoice';
import { tableName } from './client';
import { EntityType, keys } from './keys';

/** An event of the outbox (DESIGN §1): written in the same transaction as the change it reports. */
export function buildPutEvent(event: DomainEvent) {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.event(event.eventId), entityType: EntityType.event, ...event },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}
