import { deliveryView, type WebhookDelivery } from '../../functions/domain/webhook-delivery';
import { getEndpointWithDelivery } from '../../functions/store/webhook-deliveries';
import { AdminError } from './operations';

/**
 * A delivery as `deliveries show` prints it: the API's view (state, order fields, every attempt as
 * stored) with what an operator also needs, its merchant and whether it is paused. The event's
 * payload is left out, as in the API's view: an invoice event carries the pay link, whose slug is
 * never printed.
 */
export function operatorDeliveryView(delivery: WebhookDelivery) {
  return { ...deliveryView(delivery), merchantId: delivery.merchantId, paused: delivery.paused };
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
