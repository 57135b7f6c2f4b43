import { deliveryView } from '../../domain/webhook-delivery';
import { httpHandler } from '../../http/http-handler';
import { queryDeliveries, toDelivery } from '../../store/webhook-deliveries';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { liveEndpoint } from './endpoint-change';
import { webhookRoutes } from './routes';

/** Newest first, each with its attempts; a cursor is bound to the endpoint and the status filter. */
export const handler = httpHandler(webhookRoutes.listWebhookDeliveries, async ({ params, query, route }) => {
  const { webhookEndpointId } = (await liveEndpoint(params.merchantId, params.webhookEndpointId)).endpoint;
  const scope = cursorScope(params.merchantId, route.operationId, {
    webhookEndpointId,
    status: query.status,
  });
  const startKey = await startKeyOf(query.cursor, scope);
  const page = await queryDeliveries(webhookEndpointId, query.status, query.limit, startKey);
  return { status: 200, body: await pageResponse(page, scope, (item) => deliveryView(toDelivery(item))) };
});
