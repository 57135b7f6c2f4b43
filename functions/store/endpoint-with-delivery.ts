import { deliveryShardOf } from '../domain/delivery-shards';
import type { WebhookDelivery } from '../domain/webhook-delivery';
import { batchGet } from './batch-get';
import { lastSequenceOf } from './delivery-sequences';
import { keys } from './keys';
import { getDelivery, toDelivery } from './webhook-deliveries';
import { type StoredWebhookEndpoint, toStoredEndpoint } from './webhook-endpoints';

export interface EndpointWithDelivery {
  readonly endpoint: StoredWebhookEndpoint | undefined;
  readonly delivery: WebhookDelivery | undefined;
  /** The last number of the endpoint's delivery sequence (0 before its first delivery). */
  readonly lastSequence: number;
}

type ItemKey = { readonly PK: string; readonly SK: string };

/**
 * An endpoint of the merchant and the items of `others` (undefined where none exists), in order,
 * in one strongly consistent BatchGetItem: what a route or a recovery batch reads beside the
 * endpoint it acts on.
 */
export async function getEndpointWith(
  merchantId: string,
  webhookEndpointId: string,
  others: readonly ItemKey[],
): Promise<{ endpoint: StoredWebhookEndpoint | undefined; others: (Record<string, unknown> | undefined)[] }> {
  const endpointKey = keys.webhookEndpoint(merchantId, webhookEndpointId);
  const items = await batchGet([endpointKey, ...others]);
  const itemOf = (key: ItemKey) => items.find((item) => item.PK === key.PK && item.SK === key.SK);
  const endpointItem = itemOf(endpointKey);
  return {
    endpoint: endpointItem === undefined ? undefined : toStoredEndpoint(endpointItem),
    others: others.map(itemOf),
  };
}

/**
 * An endpoint of the merchant, one delivery under it and the endpoint's delivery sequence (which
 * a redelivery advances), in one strongly consistent BatchGetItem.
 * The delivery's key holds no merchant: it belongs to the caller only when the endpoint does. The
 * delivery is looked for in shard 0, where every delivery of an endpoint with one shard is; only
 * when the endpoint's history places it in another shard is it read there, a second round trip.
 */
export async function getEndpointWithDelivery(
  merchantId: string,
  webhookEndpointId: string,
  webhookDeliveryId: string,
): Promise<EndpointWithDelivery> {
  const {
    endpoint,
    others: [deliveryItem, sequenceItem],
  } = await getEndpointWith(merchantId, webhookEndpointId, [
    keys.webhookDelivery(webhookEndpointId, webhookDeliveryId, 0),
    keys.webhookDeliverySequence(merchantId, webhookEndpointId),
  ]);
  const lastSequence = lastSequenceOf(sequenceItem);
  if (endpoint !== undefined && deliveryShardOf(webhookDeliveryId, endpoint.deliveryShards) !== 0) {
    return {
      endpoint,
      delivery: await getDelivery(webhookEndpointId, webhookDeliveryId, endpoint.deliveryShards),
      lastSequence,
    };
  }
  return {
    endpoint,
    delivery: deliveryItem === undefined ? undefined : toDelivery(deliveryItem),
    lastSequence,
  };
}

/** An endpoint of the merchant and its delivery sequence's last number. */
export interface EndpointWithSequence {
  readonly endpoint: StoredWebhookEndpoint | undefined;
  /** The last number of the endpoint's delivery sequence (0 before its first delivery). */
  readonly lastSequence: number;
  /** The sequence item as read, with the endpoint's quota histories (none before its first delivery). */
  readonly sequenceItem: Record<string, unknown> | undefined;
}

/**
 * An endpoint of the merchant and its delivery sequence, which a test delivery advances, in one
 * strongly consistent BatchGetItem.
 */
export async function getEndpointWithSequence(
  merchantId: string,
  webhookEndpointId: string,
): Promise<EndpointWithSequence> {
  const {
    endpoint,
    others: [sequenceItem],
  } = await getEndpointWith(merchantId, webhookEndpointId, [
    keys.webhookDeliverySequence(merchantId, webhookEndpointId),
  ]);
  return { endpoint, lastSequence: lastSequenceOf(sequenceItem), sequenceItem };
}
