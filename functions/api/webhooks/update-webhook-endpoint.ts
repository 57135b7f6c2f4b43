import { isoTimestamp } from '../../domain/time';
import { updateWebhookEndpoint } from '../../domain/webhook-endpoint';
import { httpHandler } from '../../http/http-handler';
import { commitWithIdempotency } from '../../store/idempotency';
import { buildReplaceEndpoint } from '../../store/webhook-endpoints';
import { changeLiveEndpoint } from './endpoint-change';
import { webhookRoutes } from './routes';

/**
 * Changes url, name, eventTypes or status, and in the sandbox simulateFailures; re-enabling resumes
 * paused deliveries (via the stream).
 */
export const handler = httpHandler(
  webhookRoutes.updateWebhookEndpoint,
  async ({ params, body, idempotency, now }) =>
    changeLiveEndpoint(params.merchantId, params.webhookEndpointId, (stored) => {
      const next = updateWebhookEndpoint(stored.endpoint, body, isoTimestamp(now));
      return commitWithIdempotency(
        idempotency,
        { status: 200, body: next },
        buildReplaceEndpoint(stored, { endpoint: next, sealedSigningSecret: stored.sealedSigningSecret }),
      );
    }),
);
