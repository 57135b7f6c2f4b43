import { httpHandler } from '../../http/http-handler';
import { queryEndpoints, toEndpoint } from '../../store/webhook-endpoints';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { webhookRoutes } from './routes';

/** Endpoints that are not deleted, newest first; never a secret. */
export const handler = httpHandler(webhookRoutes.listWebhookEndpoints, async ({ params, query, route }) => {
  const scope = cursorScope(params.merchantId, route.operationId);
  const page = await queryEndpoints(params.merchantId, query.limit, await startKeyOf(query.cursor, scope));
  return { status: 200, body: await pageResponse(page, scope, toEndpoint) };
});
