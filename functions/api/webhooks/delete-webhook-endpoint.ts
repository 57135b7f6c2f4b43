import { isoTimestamp } from '../../domain/time';
import { deleteWebhookEndpoint } from '../../domain/webhook-endpoint';
import { httpHandler } from '../../http/http-handler';
import { commitWithIdempotency } from '../../store/idempotency';
import { buildAdjustEndpointCount, buildDeleteEndpoint } from '../../store/webhook-endpoints';
import { changeLiveEndpoint } from './endpoint-change';
import { webhookRoutes } from './routes';

/**
 * 200 with the endpoint, status deleted; it frees a place under the limit of 20, and leaves the range
 * the list and the router read (docs/decisions/endpoint-management.md).
 */
export const handler = httpHandler(webhookRoutes.deleteWebhookEndpoint, ({ params, idempotency, now }) =>
  // The dispatcher writes the endpoint's health between a read and a write too: read again then.
  changeLiveEndpoint(params.merchantId, params.webhookEndpointId, (stored) => {
    const deleted = deleteWebhookEndpoint(stored.endpoint, isoTimestamp(now));
    return commitWithIdempotency(idempotency, { status: 200, body: deleted }, [
      ...buildDeleteEndpoint(stored, deleted),
      buildAdjustEndpointCount(deleted.merchantId, -1),
    ]);
  }),
);
