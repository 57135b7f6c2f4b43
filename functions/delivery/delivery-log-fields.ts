import type { WebhookDelivery } from '../domain/webhook-delivery';

/**
 * The ids every pipeline log line about one delivery carries, under the names all three pipeline
 * functions use, so one search for a `deliveryId` or an `eventId` finds its whole story. Passed on
 * each call rather than appended to the logger: the dispatcher handles a batch's messages at once.
 */
export function deliveryLogFields(
  delivery: Pick<WebhookDelivery, 'webhookDeliveryId' | 'eventId' | 'webhookEndpointId' | 'merchantId'>,
) {
  return {
    deliveryId: delivery.webhookDeliveryId,
    eventId: delivery.eventId,
    endpointId: delivery.webhookEndpointId,
    merchantId: delivery.merchantId,
  };
}
