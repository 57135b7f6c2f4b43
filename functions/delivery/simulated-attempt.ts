import { simulatedFailureOutcome } from '../domain/simulated-failures';
import type { StoredWebhookEndpoint } from '../store/webhook-endpoints';
import { takeSimulatedFailure } from '../store/webhook-endpoints';

/**
 * A sandbox simulated failure in place of the attempt, when the endpoint as read has one left and
 * one is still there to take (docs/decisions/sandbox-failure-simulation.md); undefined otherwise, for a real
 * attempt. An endpoint read without one costs nothing here: no round trip is sent.
 */
export async function simulatedAttempt(stored: StoredWebhookEndpoint, now: () => Date) {
  if ((stored.endpoint.simulateFailures ?? 0) <= 0) return undefined;
  const startedAt = now();
  const { merchantId, webhookEndpointId } = stored.endpoint;
  const remaining = await takeSimulatedFailure(merchantId, webhookEndpointId);
  if (remaining === undefined) return undefined;
  const durationMs = now().getTime() - startedAt.getTime();
  return { startedAt, result: simulatedFailureOutcome(remaining, durationMs) };
}
