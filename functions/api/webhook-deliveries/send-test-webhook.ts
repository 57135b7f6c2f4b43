import { limitedUntil, TestDeliveryLimit, withUse } from '../../domain/endpoint-quotas';
import { secondsUntil } from '../../domain/pay-link-declines';
import { testDeliveryOf } from '../../domain/test-delivery';
import { isoTimestamp } from '../../domain/time';
import { deliveryView } from '../../domain/webhook-delivery';
import { WebhookEndpointStatus } from '../../domain/webhook-endpoint';
import { InvalidStateError, RateLimitedError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { refuseUnlessReplayed } from '../../store/idempotency';
import { TransactionConditionFailed } from '../../store/transaction';
import { commitNumberedDelivery, getEndpointWithSequence } from '../../store/webhook-deliveries';
import {
  buildRecordDestinationUse,
  getDestinationUse,
  QuotaAttribute,
  useHistoryOf,
} from '../../store/webhook-destinations';
import { liveOrNotFound } from '../webhooks/endpoint-change';
import { webhookDeliveryRoutes } from './routes';

/**
 * 201 with a new test delivery of sample data of the asked type to the endpoint, subscribed to that
 * type or not, with the next number of the endpoint's sequence; sent with `Merchant-Webhook-Test:
 * true`, listed and retried like any other delivery. Its `evt_` id is in no event log. A deleted
 * endpoint is 404; a disabled one is 409 invalid_state, as nothing would be sent to it
 * (docs/decisions/test-deliveries.md). Past the quota of the merchant's destination (host and path of
 * the URL, whichever endpoint points there) it is 429 with Retry-After, decided from the destination's
 * history as read and written in the delivery's transaction only while it is that history
 * (docs/decisions/quotas-on-test-deliveries-and-recoveries.md).
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
    let history = useHistoryOf(
      await getDestinationUse(live.merchantId, live.url),
      QuotaAttribute.testDeliveries,
    );
    for (let round = 1; ; round += 1) {
      const until = limitedUntil(TestDeliveryLimit, history, now);
      if (until !== undefined) return refuseUnlessReplayed(idempotency, testQuotaError(until, now));
      const use = buildRecordDestinationUse(
        live.merchantId,
        live.url,
        { attribute: QuotaAttribute.testDeliveries, limit: TestDeliveryLimit },
        history,
        withUse(TestDeliveryLimit, history, now),
      );
      try {
        return await commitNumberedDelivery(
          idempotency,
          delivery,
          deliveryShards,
          lastSequence,
          (numbered) => ({ status: 201, body: deliveryView(numbered) }),
          [use],
        );
      } catch (error) {
        // Action 2: the destination's history moved since it was read; decide again from it as it is.
        const moved = error instanceof TransactionConditionFailed ? error.failureAt(2) : undefined;
        if (moved === undefined || round >= maxUseRounds) throw error;
        history = useHistoryOf(moved.existing, QuotaAttribute.testDeliveries);
      }
    }
  },
);

/** Commits that keep finding the destination's history changed under them before giving up. */
const maxUseRounds = 10;

function testQuotaError(until: Date, now: Date): RateLimitedError {
  return new RateLimitedError(
    `This webhook endpoint's url has had ${TestDeliveryLimit.cap} test deliveries within the last hour, its most; ` +
      'try again later.',
    secondsUntil(until, now),
  );
}
