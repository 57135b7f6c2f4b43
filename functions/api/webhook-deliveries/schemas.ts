import * as z from 'zod/mini';
import { EventType } from '../../domain/invoice';
import { DeliveryStatus } from '../../domain/webhook-delivery';
import { integer } from '../../validation/integer';
import { documented } from '../../validation/schema-meta';
import { DeliveryAttempt } from '../delivery-schemas';
import { ListQuery, MerchantId, Timestamp, typeIdSchema } from '../shared-schemas';

const WebhookEndpointId = typeIdSchema('whk');

export const WebhookEndpointPathParams = z.strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
});

/** Redeliver takes an empty body or `{}` (docs/decisions/endpoint-management.md). */
export const EmptyBody = z.optional(z.strictObject({}));

const { merchantId: _merchantId, ...pageQuery } = ListQuery;

export const WebhookDeliveryId = typeIdSchema('whkdel');

export const WebhookDelivery = documented(
  z.strictObject({
    webhookDeliveryId: WebhookDeliveryId,
    webhookEndpointId: WebhookEndpointId,
    eventId: documented(typeIdSchema('evt'), {
      description: 'The event delivered; sent as the Merchant-Webhook-Event-Id header.',
    }),
    eventType: z.enum(EventType),
    sequence: documented(z.nullable(integer({ min: 1 })), {
      description:
        "The delivery's number in its endpoint's gapless sequence (1, 2, 3 …), sent as the Merchant-Webhook-Sequence header; null for deliveries created before sequences were kept.",
    }),
    objectVersion: documented(z.nullable(integer({ min: 1 })), {
      description:
        "The version of the event's object after the change (an invoice's currentRevisionNumber), sent as the Merchant-Webhook-Object-Version header; null when unknown.",
    }),
    status: z.enum(DeliveryStatus),
    attemptCount: integer({ min: 0 }),
    createdAt: Timestamp,
    lastAttemptAt: z.nullable(Timestamp),
    redeliveredFromId: z.nullable(WebhookDeliveryId),
    attempts: z.array(DeliveryAttempt),
    test: z.optional(
      documented(z.boolean(), {
        description:
          'Present (true) only on a test delivery of sample data (POST …/test), which is sent with the ' +
          'Merchant-Webhook-Test: true header; its eventId is in no event log.',
      }),
    ),
  }),
  { id: 'WebhookDelivery' },
);

export const ListDeliveriesQuery = z.strictObject({
  ...pageQuery,
  status: z.optional(z.enum(DeliveryStatus)),
});

export const DeliveryPathParams = z.strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
  webhookDeliveryId: WebhookDeliveryId,
});

/**
 * A test delivery's event type: any subscribable type, whether the endpoint subscribes to it or not
 * (docs/decisions/test-deliveries.md).
 */
export const TestDeliveryBody = z.strictObject({ eventType: z.enum(EventType) });
