import { TestDeliveryLimit } from '../../domain/endpoint-quotas';
import { secondsUntil } from '../../domain/pay-link-declines';
import { testDeliveryOf } from '../../domain/test-delivery';
import { isoTimestamp } from '../../domain/time';
import { deliveryView } from '../../domain/webhook-delivery';
import { WebhookEndpointStatus } from '../../domain/webhook-endpoint';
import { InvalidStateError, RateLimitedError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { refuseUnlessReplayed } from '../../store/idempotency';
import { commitNumberedDelivery, getEndpointWithSequence } from '../../store/webhook-deliveries';
import { QuotaAttribute } from '../../store/webhook-destinations';
import { withinDestinationQuota } from '../webhooks/destination-quota';
import { liveOrNotFound } from '../webhooks/endpoint-change';
import { webhookDeliveryRoutes } from './routes';

/** Sends the endpoint a test delivery of sample data (docs/decisions/test-deliveries.md). */
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
    return withinDestinationQuota({
      merchantId: live.merchantId,
      url: live.url,
      attribute: QuotaAttribute.testDeliveries,
      limit: TestDeliveryLimit,
      now,
      commit: (use) =>
        commitNumberedDelivery(
          idempotency,
          delivery,
          deliveryShards,
          lastSequence,
          (numbered) => ({ status: 201, body: deliveryView(numbered) }),
          [use],
        ),
      // After the delivery's put and the sequence's advance.
      useIndex: 2,
      refuse: (until) => refuseUnlessReplayed(idempotency, testQuotaError(until, now)),
      maxRounds: 10,
    });
  },
);

function testQuotaError(until: Date, now: Date): RateLimitedError {
  return new RateLimitedError(
    `This webhook endpoint's url has had ${TestDeliveryLimit.cap} test deliveries within the last hour, its most; ` +
      'try again later.',
    secondsUntil(until, now),
  );
}
