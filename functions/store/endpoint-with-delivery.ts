import { deliveryShardOf } from '../domain/delivery-shards';
import type { WebhookDelivery } from '../domain/webhook-delivery';
import { batchGet } from './batch-get';
import { keys } from './keys';
import { getDelivery, toDelivery } from './webhook-deliveries';
import { type StoredWebhookEndpoint, toStoredEndpoint } from './webhook-endpoints';

export interface EndpointWithDelivery {
  readonly endpoint: StoredWebhookEndpoint | undefined;
  readonly delivery: WebhookDelivery | undefined;
}

/**
 * An endpoint of the merchant and one delivery under it, in one strongly consistent BatchGetItem.
 * The delivery's key holds no merchant: it belongs to the caller only when the endpoint does. The
 * delivery is looked for in shard 0, where every delivery of an endpoint with one shard is; only
 * when the endpoint's history places it in another shard is it read there, a second round trip.
 */
export async function getEndpointWithDelivery(
  merchantId: string,
  webhookEndpointId: string,
  webhookDeliveryId: string,
): Promise<EndpointWithDelivery> {
  const endpointKey = keys.webhookEndpoint(merchantId, webhookEndpointId);
  const deliveryKey = keys.webhookDelivery(webhookEndpointId, webhookDeliveryId, 0);
  const items = await batchGet([endpointKey, deliveryKey]);
  const endpointItem = items.find((item) => item.PK === endpointKey.PK && item.SK === endpointKey.SK);
  const deliveryItem = items.find((item) => item.PK === deliveryKey.PK && item.SK === deliveryKey.SK);
  const endpoint = endpointItem === undefined ? undefined : toStoredEndpoint(endpointItem);
  if (endpoint !== undefined && deliveryShardOf(webhookDeliveryId, endpoint.deliveryShards) !== 0) {
    return {
      endpoint,
      delivery: await getDelivery(webhookEndpointId, webhookDeliveryId, endpoint.deliveryShards),
    };
  }
  return { endpoint, delivery: deliveryItem === undefined ? undefined : toDelivery(deliveryItem) };
}
