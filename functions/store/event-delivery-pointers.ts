import { type DeliveryShardHistory, deliveryShardOf } from '../domain/delivery-shards';
import { expiresAtOfEvent } from '../domain/retention';
import type { WebhookDelivery } from '../domain/webhook-delivery';
import { tableName } from './client';
import { EntityType, keys, SortKeyPrefix } from './keys';

/**
 * The pointer to a new delivery in its event's partition: what lists the event's deliveries. It
 * names the delivery's endpoint and shard, so a reader builds the delivery's exact key without the
 * endpoint's shard history, and its merchant and expiry (the event's), so a page of pointers proves
 * whose event it is. Written once, with the delivery, and never rewritten: the delivery's attempts
 * touch no index and no other item.
 */
export function buildPutEventDeliveryPointer(delivery: WebhookDelivery, shards: DeliveryShardHistory) {
  return {
    TableName: tableName(),
    Item: {
      ...keys.eventDeliveryPointer(delivery.eventId, delivery.webhookDeliveryId),
      entityType: EntityType.eventDeliveryPointer,
      webhookEndpointId: delivery.webhookEndpointId,
      deliveryShard: deliveryShardOf(delivery.webhookDeliveryId, shards),
      merchantId: delivery.merchantId,
      ttl: expiresAtOfEvent(delivery.eventId),
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  };
}

/** The id of the delivery a stored pointer names: its sort key is `DELIVERY#<id>`. */
export function deliveryIdOfPointer(pointer: Record<string, unknown>): string {
  return String(pointer.SK).slice(SortKeyPrefix.webhookDelivery.length);
}

/** The table key of the delivery a stored pointer names. */
export function deliveryKeyOfPointer(pointer: Record<string, unknown>) {
  return keys.webhookDelivery(
    String(pointer.webhookEndpointId),
    deliveryIdOfPointer(pointer),
    Number(pointer.deliveryShard),
  );
}
