import { testDeliveryOf } from '../../domain/test-delivery';
import { isoTimestamp } from '../../domain/time';
import { deliveryView } from '../../domain/webhook-delivery';
import { WebhookEndpointStatus } from '../../domain/webhook-endpoint';
import { InvalidStateError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getEndpointWithSequence } from '../../store/endpoint-with-delivery';
import { commitNumberedDelivery } from '../../store/numbered-delivery';
import { liveOrNotFound } from '../webhooks/endpoint-change';
import { webhookDeliveryRoutes } from './routes';

/**
 * 201 with a new test delivery of sample data of the asked type to the endpoint, subscribed to that
 * type or not, with the next number of the endpoint's sequence; sent with `Merchant-Webhook-Test:
 * true`, listed and retried like any other delivery. Its `evt_` id is in no event log. A deleted
 * endpoint is 404; a disabled one is 409 invalid_state, as nothing would be sent to it
 * (docs/decisions.md "Test deliveries"). Endpoint and sequence are read together.
 */
export const handler = httpHandler(
  webhookDeliveryRoutes.sendTestWebhook,
  async ({ params, body, idempotency, now }) => {
    const { endpoint, lastSequence } = await getEndpointWithSequence(
      params.merchantId,
      params.webhookEndpointId,
    );
    const { deliveryShards, endpoint: live } = liveOrNotFound(endpoint);
    if (live.status === WebhookEndpointStatus.disabled)
      throw new InvalidStateError('The webhook endpoint is disabled; enable it to send a test delivery.');
    const delivery = testDeliveryOf({
      webhookEndpointId: live.webhookEndpointId,
      merchantId: live.merchantId,
      eventType: body.eventType,
      now: isoTimestamp(now),
    });
    return commitNumberedDelivery(idempotency, delivery, deliveryShards, lastSequence, (numbered) => ({
      status: 201,
      body: deliveryView(numbered),
    }));
  },
);
