import { type Infer, integer, strictObject, string } from '../schema';

/**
 * The queue message: which delivery, and which attempt it asks for. The dispatcher records an
 * attempt only while the delivery still has `attemptCount` attempts, so a duplicate or stale
 * message does nothing.
 */
export const DeliveryMessage = strictObject({
  webhookEndpointId: string({ min: 1 }),
  webhookDeliveryId: string({ min: 1 }),
  attemptCount: integer({ min: 0 }),
});

export type DeliveryMessage = Infer<typeof DeliveryMessage>;

/** What the router and reconciler need of an SQS client; the local delay queue provides the same. */
export interface DeliveryQueue {
  /** `delaySeconds` undefined: the queue's default delay (the retry delay, 60 s). */
  send(message: DeliveryMessage, delaySeconds: 0 | undefined): Promise<void>;
}
