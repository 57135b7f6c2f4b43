import * as z from 'zod/mini';
import { integer } from '../validation/integer';
import { documented } from '../validation/schema-meta';
import { text } from '../validation/text';
import { Timestamp } from './shared-schemas';

/**
 * One attempt of a webhook delivery (the API reference's delivery history record), as both the
 * endpoint's deliveries list and the event's deliveries list show it.
 */
export const DeliveryAttempt = documented(
  z.strictObject({
    attemptNumber: integer({ min: 1 }),
    attemptedAt: Timestamp,
    responseStatusCode: z.nullable(integer()),
    durationMs: integer({ min: 0 }),
    errorMessage: z.nullable(text()),
  }),
  { id: 'WebhookDeliveryAttempt' },
);
