import { newId } from '../../domain/ids';
import { isoTimestamp } from '../../domain/time';
import { deliveryView, redeliveryOf } from '../../domain/webhook-delivery';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { commitNumberedDelivery, getEndpointWithDelivery } from '../../store/webhook-deliveries';
import { liveOrNotFound } from '../webhooks/endpoint-change';
import { webhookDeliveryRoutes } from './routes';

/**
 * 201 with a new delivery of the same event, linked by redeliveredFromId, with the next number of
 * the endpoint's sequence; the original is neither retried nor changed, even when exhausted. The
 * stream enqueues it at once. Endpoint, delivery and sequence are read together; the endpoint's 404
 * comes first, as the delivery is the caller's only through it.
 */
export const handler = httpHandler(
  webhookDeliveryRoutes.redeliverWebhook,
  async ({ params, idempotency, now }) => {
    const {
      endpoint,
      delivery: original,
      lastSequence,
    } = await getEndpointWithDelivery(params.merchantId, params.webhookEndpointId, params.webhookDeliveryId);
    const { deliveryShards } = liveOrNotFound(endpoint);
    if (original === undefined) throw new NotFoundError('The webhook delivery does not exist.');
    const createdAt = isoTimestamp(now);
    const redelivery = redeliveryOf(original, newId('whkdel'), createdAt);
    return commitNumberedDelivery(idempotency, redelivery, deliveryShards, lastSequence, (numbered) => ({
      status: 201,
      body: deliveryView(numbered),
    }));
  },
);
