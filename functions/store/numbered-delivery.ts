import type { DeliveryShardHistory } from '../domain/delivery-shards';
import { type WebhookDelivery, withSequence } from '../domain/webhook-delivery';
import { buildAdvanceSequence, lastSequenceOf } from './delivery-sequences';
import { commitWithIdempotency, type IdempotencyContext, type StoredResponse } from './idempotency';
import { TransactionConditionFailed } from './transaction';
import { buildCreateDelivery } from './webhook-deliveries';

/** How often a route's delivery is numbered afresh when other writers keep taking its number. */
const maxRedeliveryRounds = 10;

/**
 * Writes a delivery a route creates (a redelivery, a test delivery), with the next number of its endpoint's sequence, guarded by the idempotency record, in
 * one transaction with the sequence's advance. When another writer (the router, another route's
 * delivery) took that number since `lastSequence` was read, the failed condition returns the
 * sequence as it is now, and the delivery is numbered afresh and sent again.
 */
export async function commitNumberedDelivery(
  idempotency: IdempotencyContext,
  redelivery: WebhookDelivery,
  shards: DeliveryShardHistory,
  lastSequence: number,
  respond: (delivery: WebhookDelivery) => StoredResponse,
): Promise<StoredResponse> {
  let last = lastSequence;
  for (let round = 1; ; round += 1) {
    const numbered = withSequence(redelivery, last + 1);
    const advance = {
      merchantId: redelivery.merchantId,
      webhookEndpointId: redelivery.webhookEndpointId,
      from: last,
      to: last + 1,
    };
    try {
      return await commitWithIdempotency(idempotency, respond(numbered), [
        ...buildCreateDelivery(numbered, numbered.createdAt, shards),
        buildAdvanceSequence(advance),
      ]);
    } catch (error) {
      // After the delivery's put: the sequence's advance.
      const moved = error instanceof TransactionConditionFailed ? error.failureAt(1) : undefined;
      if (moved === undefined || round >= maxRedeliveryRounds) throw error;
      last = lastSequenceOf(moved.existing);
    }
  }
}
