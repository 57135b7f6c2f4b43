import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getEndpointWithRecovery } from '../../store/webhook-recoveries';
import { liveOrNotFound } from '../webhooks/endpoint-change';
import { webhookRecoveryRoutes } from './routes';

/**
 * A recovery's status and counts as its batches commit. Endpoint and recovery are read together;
 * the endpoint's 404 comes first, as the recovery is the caller's only through it.
 */
export const handler = httpHandler(webhookRecoveryRoutes.getWebhookRecovery, async ({ params, now }) => {
  const { endpoint, recovery } = await getEndpointWithRecovery(
    params.merchantId,
    params.webhookEndpointId,
    params.recoveryId,
    now,
  );
  liveOrNotFound(endpoint);
  if (recovery === undefined || recovery.recovery.webhookEndpointId !== params.webhookEndpointId)
    throw new NotFoundError('The recovery does not exist.');
  return { status: 200, body: recovery.recovery };
});
