import type { WebhookDelivery } from '../../functions/domain/webhook-delivery';
import { mergeShards, readShardZero, toDelivery } from '../../functions/store/webhook-deliveries';
import { AdminError } from './operations';

/** The newest deliveries read for `endpoints failures`: one page of the deliveries list route. */
export const failuresWindow = 100;
export const defaultFailuresLimit = 20;

/** One failed attempt, with the delivery it belongs to. */
export interface FailedAttempt {
  readonly webhookDeliveryId: string;
  readonly eventType: WebhookDelivery['eventType'];
  readonly deliveryStatus: WebhookDelivery['status'];
  readonly attemptNumber: number;
  readonly attemptedAt: string;
  readonly responseStatusCode: number | null;
  readonly durationMs: number;
  readonly errorMessage: string | null;
}

/**
 * The failed attempts (every attempt that was not a 2xx carries an error message) of `deliveries`,
 * newest first, at most `limit`.
 */
export function failedAttemptsOf(deliveries: readonly WebhookDelivery[], limit: number): FailedAttempt[] {
  const failed = deliveries.flatMap((delivery) =>
    delivery.attempts
      .filter((attempt) => attempt.errorMessage !== null)
      .map((attempt) => ({
        webhookDeliveryId: delivery.webhookDeliveryId,
        eventType: delivery.eventType,
        deliveryStatus: delivery.status,
        attemptNumber: attempt.attemptNumber,
        attemptedAt: attempt.attemptedAt,
        responseStatusCode: attempt.responseStatusCode,
        durationMs: attempt.durationMs,
        errorMessage: attempt.errorMessage,
      })),
  );
  // ISO 8601 UTC timestamps of one format sort by time as strings.
  return failed
    .sort((a, b) => (a.attemptedAt < b.attemptedAt ? 1 : a.attemptedAt > b.attemptedAt ? -1 : 0))
    .slice(0, limit);
}

/**
 * An endpoint's recent failed attempts, newest first: those among its newest `failuresWindow`
 * deliveries, read with the deliveries list route's queries (shard 0 with the owner, then the other
 * shards), so the cost is bounded and no table scan is made.
 */
export async function endpointFailures(merchantId: string, webhookEndpointId: string, limit: number) {
  const request = { webhookEndpointId, status: undefined, limit: failuresWindow, startKey: undefined };
  const shardZero = await readShardZero(merchantId, request);
  const owner = shardZero.owner;
  if (owner === undefined || owner.merchantId !== merchantId) {
    throw new AdminError(`endpoint ${webhookEndpointId} of merchant ${merchantId} does not exist`);
  }
  const page = await mergeShards(request, owner, shardZero.items);
  const deliveries = page.items.map(toDelivery);
  return {
    webhookEndpointId,
    merchantId,
    deliveriesRead: deliveries.length,
    items: failedAttemptsOf(deliveries, limit),
  };
}
