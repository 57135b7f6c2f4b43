import type { WebhookDelivery } from '../domain/webhook-delivery';
import { batchGet } from './batch-get';
import { keys } from './keys';
import { toDelivery } from './webhook-deliveries';
import { type StoredWebhookEndpoint, toStoredEndpoint } from './webhook-endpoints';

export interface EndpointWithDelivery {
  readonly endpoint: StoredWebhookEndpoint | undefined;
  readonly delivery: WebhookDelivery | undefined;
}

/**
 * An endpoint of the merchant and one delivery under it, in one strongly consistent BatchGetItem.
 * The delivery's key holds no merchant: it belongs to the caller only when the endpoint does.
 */
export async function getEndpointWithDelivery(
  merchantId: string,
  webhookEndpointId: string,
  webhookDeliveryId: string,
): Promise<EndpointWithDelivery> {
  const endpointKey = keys.webhookEndpoint(merchantId, webhookEndpointId);
  const deliveryKey = keys.webhookDelivery(webhookEndpointId, webhookDeliveryId);
  const items = await batchGet([endpointKey, deliveryKey]);
  const endpoint = items.find((item) => item.PK === endpointKey.PK && item.SK === endpointKey.SK);
  const delivery = items.find((item) => item.PK === deliveryKey.PK && item.SK === deliveryKey.SK);
  return {
    endpoint: endpoint === undefined ? undefined : toStoredEndpoint(endpoint),
    delivery: delivery === undefined ? undefined : toDelivery(delivery),
  };
}
