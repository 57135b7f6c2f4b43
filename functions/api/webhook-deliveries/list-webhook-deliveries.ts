import { type DeliveryStatus, deliveryView } from '../../domain/webhook-delivery';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import {
  type DeliveriesPageRequest,
  deliveriesOfStatusPage,
  mergeShards,
  readShardZero,
  toDelivery,
} from '../../store/webhook-deliveries';
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
    const { status } = request;
    const page =
      status === undefined
        ? await allDeliveries(merchantId, request)
        : await ofStatus(merchantId, { ...request, status });
    return { status: 200, body: await pageResponse(page, scope, (item) => deliveryView(toDelivery(item))) };
  },
);

/** Every delivery: shard 0 from the endpoint's marker down (or beside its read), then the other shards. */
async function allDeliveries(merchantId: string, request: DeliveriesPageRequest) {
  const shardZero = await readShardZero(merchantId, request);
  return mergeShards(request, ownedAndLive(shardZero.owner, merchantId), shardZero.items);
}

/** Those of one status, through their keys (docs/decisions/keys-for-every-filter.md). */
async function ofStatus(merchantId: string, request: DeliveriesPageRequest & { status: DeliveryStatus }) {
  const { owner, page } = await deliveriesOfStatusPage(request);
  ownedAndLive(owner, merchantId);
  return page;
}

function ownedAndLive(owner: DeliveriesMarker | undefined, merchantId: string): DeliveriesMarker {
  if (owner === undefined || owner.merchantId !== merchantId || owner.deleted) {
    throw new NotFoundError('The webhook endpoint does not exist.');
  }
  return owner;
}
