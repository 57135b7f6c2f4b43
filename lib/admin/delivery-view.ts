import type { WebhookDelivery } from '../../functions/domain/webhook-delivery';
import { getEndpointWithDelivery } from '../../functions/store/endpoint-with-delivery';
import { AdminError } from './operations';

/**
 * A delivery as `deliveries show` prints it: its state and every attempt as stored. The event's
 * payload is left out: an invoice event carries the pay link, whose slug is never printed.
 */
export function operatorDeliveryView(delivery: WebhookDelivery) {
  return {
    webhookDeliveryId: delivery.webhookDeliveryId,
    webhookEndpointId: delivery.webhookEndpointId,
    merchantId: delivery.merchantId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    paused: delivery.paused,
    attemptCount: delivery.attemptCount,
    createdAt: delivery.createdAt,
    lastAttemptAt: delivery.lastAttemptAt,
    redeliveredFromId: delivery.redeliveredFromId,
    attempts: delivery.attempts.map((attempt) => ({
      attemptNumber: attempt.attemptNumber,
      attemptedAt: attempt.attemptedAt,
      responseStatusCode: attempt.responseStatusCode,
      durationMs: attempt.durationMs,
      errorMessage: attempt.errorMessage,
    })),
  };
}

/**
 * One delivery by its id, read as the redeliver route reads it: with its endpoint, whose key holds
 * the merchant, so a delivery is found only under the merchant that owns its endpoint.
 */
export async function showDelivery(merchantId: string, webhookEndpointId: string, webhookDeliveryId: string) {
  const { endpoint, delivery } = await getEndpointWithDelivery(
    merchantId,
    webhookEndpointId,
    webhookDeliveryId,
  );
  if (endpoint === undefined) {
    throw new AdminError(`endpoint ${webhookEndpointId} of merchant ${merchantId} does not exist`);
  }
  if (delivery === undefined) {
    throw new AdminError(`delivery ${webhookDeliveryId} of endpoint ${webhookEndpointId} does not exist`);
  }
  return operatorDeliveryView(delivery);
}
