import { limitedUntil, TestDeliveryLimit, withUse } from '../../domain/endpoint-quotas';
import { secondsUntil } from '../../domain/pay-link-declines';
import { testDeliveryOf } from '../../domain/test-delivery';
import { isoTimestamp } from '../../domain/time';
import { deliveryView } from '../../domain/webhook-delivery';
import { WebhookEndpointStatus } from '../../domain/webhook-endpoint';
import { InvalidStateError, RateLimitedError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { refuseUnlessReplayed } from '../../store/idempotency';
import { commitNumberedDelivery, getEndpointWithSequence } from '../../store/webhook-deliveries';
import { QuotaAttribute, useHistoryOf } from '../../store/webhook-endpoints';
import { liveOrNotFound } from '../webhooks/endpoint-change';
import { webhookDeliveryRoutes } from './routes';

/**
 * 201 with a new test delivery of sample data of the asked type to the endpoint, subscribed to that
 * type or not, with the next number of the endpoint's sequence; sent with `Merchant-Webhook-Test:
 * true`, listed and retried like any other delivery. Its `evt_` id is in no event log. A deleted
 * endpoint is 404; a disabled one is 409 invalid_state, as nothing would be sent to it
 * (docs/decisions/test-deliveries.md). Past the endpoint's quota it is 429 with Retry-After,
 * decided from the sequence item read with the endpoint and written by the same advance
 * (docs/decisions/quotas-on-test-deliveries-and-recoveries.md). Endpoint and sequence are read
 * together.
 */
export const handler = httpHandler(
  webhookDeliveryRoutes.sendTestWebhook,
  async ({ params, body, idempotency, now }) => {
    const { endpoint, lastSequence, sequenceItem } = await getEndpointWithSequence(
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
    const historyAfter = (item: Record<string, unknown> | undefined) => {
      const history = useHistoryOf(item, QuotaAttribute.testDeliveries);
      const until = limitedUntil(TestDeliveryLimit, history, now);
      if (until !== undefined) throw testQuotaError(until, now);
      return withUse(TestDeliveryLimit, history, now);
    };
    try {
      return await commitNumberedDelivery(
        idempotency,
        delivery,
        deliveryShards,
        lastSequence,
        (numbered) => ({ status: 201, body: deliveryView(numbered) }),
        { sequenceItem, historyAfter },
      );
    } catch (error) {
      if (error instanceof RateLimitedError) return refuseUnlessReplayed(idempotency, error);
      throw error;
    }
  },
);

function testQuotaError(until: Date, now: Date): RateLimitedError {
  return new RateLimitedError(
    `This webhook endpoint has had ${TestDeliveryLimit.cap} test deliveries within the last hour, its most; ` +
      'try again later.',
    secondsUntil(until, now),
  );
}
