import { setTimeout as sleep } from 'node:timers/promises';
import { shownByDeliveries, unansweredReason } from '../../domain/endpoint-health';
import { isLive } from '../../domain/webhook-endpoint';
import { newestDeliveriesWithLeases } from '../../store/webhook-deliveries';
import { getEndpoint, type StoredWebhookEndpoint } from '../../store/webhook-endpoints';

/** How long a start waits, at most, for an attempt in flight on the endpoint to be recorded. */
const inFlightWaitMs = 3000;
const pollMs = 50;
/** The newest deliveries read per shard: the attempt just made is among them. */
const deliveriesRead = 10;

/**
 * Why the endpoint has not shown that it answers, or undefined when it has, with the endpoint as last
 * read (docs/decisions/recovery-needs-an-endpoint-that-answers.md). The recorded health comes first and
 * costs nothing more. When it refuses, the endpoint's newest deliveries are read: a success they hold
 * that the dispatcher has not yet written to the endpoint counts, and while a dispatcher holds an
 * attempt the start waits for its outcome (at most `inFlightWaitMs`), so a merchant who recovers the
 * moment a test delivery was answered gets the recovery rather than a 409.
 */
export async function unansweredNow(
  stored: StoredWebhookEndpoint,
  now: Date,
): Promise<{ reason: string | undefined; stored: StoredWebhookEndpoint }> {
  const deadline = Date.now() + inFlightWaitMs;
  let current = stored;
  for (;;) {
    const reason = unansweredReason(current.endpoint, now);
    if (reason === undefined) return { reason, stored: current };
    const { webhookEndpointId, merchantId } = current.endpoint;
    const deliveries = await newestDeliveriesWithLeases(
      webhookEndpointId,
      current.deliveryShards,
      deliveriesRead,
    );
    const shown = shownByDeliveries(current.endpoint, deliveries, new Date());
    if (shown === 'answered') return { reason: undefined, stored: current };
    if (shown === 'unanswered' || Date.now() >= deadline) return { reason, stored: current };
    await sleep(pollMs);
    const again = await getEndpoint(merchantId, webhookEndpointId);
    if (again === undefined || !isLive(again.endpoint)) return { reason, stored: current };
    current = again;
  }
}
