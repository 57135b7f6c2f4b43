import { newId } from '../../domain/ids';
import { isoTimestamp } from '../../domain/time';
import { deliveryView, redeliveryOf } from '../../domain/webhook-delivery';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { commitWithIdempotency } from '../../store/idempotency';
import { buildPutNewDelivery, getDelivery } from '../../store/webhook-deliveries';
import { liveEndpoint } from './endpoint-change';
import { webhookRoutes } from './routes';

/**
 * 201 with a new delivery of the same event, linked by redeliveredFromId; the original is neither
 * retried nor changed, even when exhausted. The stream enqueues it at once.
 */
export const handler = httpHandler(webhookRoutes.redeliverWebhook, async ({ params, idempotency, now }) => {
  await liveEndpoint(params.merchantId, params.webhookEndpointId);
  const original = await getDelivery(params.webhookEndpointId, params.webhookDeliveryId);
  if (original === undefined) throw new NotFoundError('The webhook delivery does not exist.');
  const createdAt = isoTimestamp(now);
  const redelivery = redeliveryOf(original, newId('whkdel'), createdAt);
  return commitWithIdempotency(idempotency, { status: 201, body: deliveryView(redelivery) }, [
    { Put: buildPutNewDelivery(redelivery, createdAt) },
  ]);
});
