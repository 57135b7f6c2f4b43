import { annotate, integer, nullable, strictObject, string } from '../schema';
import { Timestamp } from './shared-schemas';

/**
 * One attempt of a webhook delivery (spec "Webhook delivery (history record)"), as both the
 * endpoint's deliveries list and the event's deliveries list show it.
 */
export const DeliveryAttempt = annotate(
  strictObject({
    attemptNumber: integer({ min: 1 }),
    attemptedAt: Timestamp,
    responseStatusCode: nullable(integer()),
    durationMs: integer({ min: 0 }),
    errorMessage: nullable(string()),
  }),
  { id: 'WebhookDeliveryAttempt' },
);
