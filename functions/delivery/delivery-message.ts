import * as z from 'zod/mini';
import type { WebhookDelivery } from '../domain/webhook-delivery';
import { integer } from '../validation/integer';
import { text } from '../validation/text';

/**
 * The queue message: which delivery, and which attempt it asks for. The dispatcher records an
 * attempt only while the delivery still has `attemptCount` attempts, so a duplicate or stale
 * message does nothing. `merchantId` and `shard` place the delivery, so the dispatcher leases it
 * while it reads the endpoint; a message without them is malformed and goes to the dead-letter queue.
 */
export const DeliveryMessage = z.strictObject({
  merchantId: text({ min: 1 }),
  shard: integer({ min: 0 }),
  webhookEndpointId: text({ min: 1 }),
  webhookDeliveryId: text({ min: 1 }),
  attemptCount: integer({ min: 0 }),
});

export type DeliveryMessage = z.output<typeof DeliveryMessage>;

/**
 * The message asking for a delivery's next attempt: the one form every sender uses. Every sender
 * holds the stored item, so it names the delivery's shard too: the dispatcher then leases the
 * delivery while it reads the endpoint, instead of reading the endpoint to place the delivery first.
 */
export function deliveryMessageOf(delivery: WebhookDelivery, shard: number): DeliveryMessage {
  return {
    merchantId: delivery.merchantId,
    shard,
    webhookEndpointId: delivery.webhookEndpointId,
    webhookDeliveryId: delivery.webhookDeliveryId,
    attemptCount: delivery.attemptCount,
  };
}

/** What the router and reconciler need of an SQS client; the local delay queue provides the same. */
export interface DeliveryQueue {
  /** `delaySeconds` undefined: the queue's default delay (the retry delay, 60 s). */
  send(message: DeliveryMessage, delaySeconds: 0 | undefined): Promise<void>;
}
