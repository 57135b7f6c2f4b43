import { z } from 'zod';

/**
 * The queue message: which delivery, and which attempt it asks for. The dispatcher records an
 * attempt only while the delivery still has `attemptCount` attempts, so a duplicate or stale
 * message does nothing.
 */
export const DeliveryMessage = z.strictObject({
  webhookEndpointId: z.string().min(1),
  webhookDeliveryId: z.string().min(1),
  attemptCount: z.number().int().min(0),
});

export type DeliveryMessage = z.infer<typeof DeliveryMessage>;

/** What the router and reconciler need of an SQS client; the local delay queue provides the same. */
export interface DeliveryQueue {
  /** `delaySeconds` undefined: the queue's default delay (the retry delay, 60 s). */
  send(message: DeliveryMessage, delaySeconds: 0 | undefined): Promise<void>;
}
