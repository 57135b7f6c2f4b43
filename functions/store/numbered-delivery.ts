import type { DeliveryShardHistory } from '../domain/delivery-shards';
import { type WebhookDelivery, withSequence } from '../domain/webhook-delivery';
import { buildAdvanceSequence, withNextNumbers } from './delivery-sequences';
import { commitWithIdempotency, type IdempotencyContext, type StoredResponse } from './idempotency';
import { buildCreateDelivery } from './webhook-deliveries';

/**
 * Writes a delivery a route creates (a redelivery, a test delivery), with the next number of its
 * endpoint's sequence, guarded by the idempotency record, in one transaction with the sequence's
 * advance (after the delivery's put: action 1 of the route's items), numbered afresh when another
 * writer took that number since `lastSequence` was read (`withNextNumbers`).
 */
export async function commitNumberedDelivery(
  idempotency: IdempotencyContext,
  redelivery: WebhookDelivery,
  shards: DeliveryShardHistory,
  lastSequence: number,
  respond: (delivery: WebhookDelivery) => StoredResponse,
): Promise<StoredResponse> {
  const { merchantId, webhookEndpointId } = redelivery;
  return withNextNumbers(lastSequence, 1, (last) => {
    const numbered = withSequence(redelivery, last + 1);
    return commitWithIdempotency(idempotency, respond(numbered), [
      ...buildCreateDelivery(numbered, numbered.createdAt, shards),
      buildAdvanceSequence({ merchantId, webhookEndpointId, from: last, to: last + 1 }),
    ]);
  });
}
