import { deliveryView } from '../../domain/webhook-delivery';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { mergeShards, readShardZero, toDelivery } from '../../store/webhook-deliveries';
import type { DeliveriesMarker } from '../../store/webhook-endpoints';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { webhookDeliveryRoutes } from './routes';

/**
 * Newest first across the endpoint's delivery shards, each with its attempts; a cursor is bound to
 * the endpoint and the status filter. An unknown, deleted or another merchant's endpoint is a 404.
 */
export const handler = httpHandler(
  webhookDeliveryRoutes.listWebhookDeliveries,
  async ({ params, query, route }) => {
    const { merchantId, webhookEndpointId } = params;
    const scope = cursorScope(merchantId, route.operationId, { webhookEndpointId, status: query.status });
    const startKey = await startKeyOf(query.cursor, scope);
    const request = { webhookEndpointId, status: query.status, limit: query.limit, startKey };
    const shardZero = await readShardZero(merchantId, request);
    const owner = ownedAndLive(shardZero.owner, merchantId);
    const page = await mergeShards(request, owner, shardZero.items);
    return { status: 200, body: await pageResponse(page, scope, (item) => deliveryView(toDelivery(item))) };
  },
);

function ownedAndLive(owner: DeliveriesMarker | undefined, merchantId: string): DeliveriesMarker {
  if (owner === undefined || owner.merchantId !== merchantId || owner.deleted) {
    throw new NotFoundError('The webhook endpoint does not exist.');
  }
  return owner;
}
