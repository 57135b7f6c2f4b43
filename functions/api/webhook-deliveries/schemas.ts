import { EventType } from '../../domain/invoice';
import { DeliveryStatus } from '../../domain/webhook-delivery';
import { annotate, array, boolean, enumOf, integer, nullable, optional, strictObject } from '../../schema';
import { DeliveryAttempt } from '../delivery-schemas';
import { ListQuery, MerchantId, Timestamp, typeIdSchema } from '../shared-schemas';

const WebhookEndpointId = typeIdSchema('whk');

export const WebhookEndpointPathParams = strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
});

/** Redeliver takes an empty body or `{}` (DESIGN §4). */
export const EmptyBody = optional(strictObject({}));

const { merchantId: _merchantId, ...pageQuery } = ListQuery;

export const WebhookDeliveryId = typeIdSchema('whkdel');

export const WebhookDelivery = annotate(
  strictObject({
    webhookDeliveryId: WebhookDeliveryId,
    webhookEndpointId: WebhookEndpointId,
    eventId: annotate(typeIdSchema('evt'), {
      description: 'The event delivered; sent as the Merchant-Webhook-Event-Id header.',
    }),
    eventType: enumOf(EventType),
    sequence: annotate(nullable(integer({ min: 1 })), {
      description:
        "The delivery's number in its endpoint's gapless sequence (1, 2, 3 …), sent as the Merchant-Webhook-Sequence header; null for deliveries created before sequences were kept.",
    }),
    objectVersion: annotate(nullable(integer({ min: 1 })), {
      description:
        "The version of the event's object after the change (an invoice's currentRevisionNumber), sent as the Merchant-Webhook-Object-Version header; null when unknown.",
    }),
    status: enumOf(DeliveryStatus),
    attemptCount: integer({ min: 0 }),
    createdAt: Timestamp,
    lastAttemptAt: nullable(Timestamp),
    redeliveredFromId: nullable(WebhookDeliveryId),
    attempts: array(DeliveryAttempt),
    test: optional(
      annotate(boolean(), {
        description:
          'Present (true) only on a test delivery of sample data (POST …/test), which is sent with the ' +
          'Merchant-Webhook-Test: true header; its eventId is in no event log.',
      }),
    ),
  }),
  { id: 'WebhookDelivery' },
);

export const ListDeliveriesQuery = strictObject({
  ...pageQuery,
  status: optional(enumOf(DeliveryStatus)),
});

export const DeliveryPathParams = strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
  webhookDeliveryId: WebhookDeliveryId,
});

/**
 * A test delivery's event type: any subscribable type, whether the endpoint subscribes to it or not
 * (docs/decisions.md "Test deliveries").
 */
export const TestDeliveryBody = strictObject({ eventType: enumOf(EventType) });
