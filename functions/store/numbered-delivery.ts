import type { DeliveryShardHistory } from '../domain/delivery-shards';
import type { UseHistory } from '../domain/endpoint-quotas';
import { type WebhookDelivery, withSequence } from '../domain/webhook-delivery';
import { buildAdvanceSequence, withNextNumbers } from './delivery-sequences';
import { commitWithIdempotency, type IdempotencyContext, type StoredResponse } from './idempotency';
import { buildCreateDelivery } from './webhook-deliveries';

/**
 * What a test delivery adds to its commit: the sequence item as read, and the endpoint's
 * test-delivery history after this one, from that item or from the one a lost advance hands back
 * (throwing instead when the quota is spent).
 */
export interface TestDeliveryUse {
  readonly sequenceItem: Record<string, unknown> | undefined;
  readonly historyAfter: (sequenceItem: Record<string, unknown> | undefined) => UseHistory;
}

/**
 * Writes a delivery a route creates (a redelivery, a test delivery), with the next number of its
 * endpoint's sequence, guarded by the idempotency record, in one transaction with the sequence's
 * advance (after the delivery's put: action 1 of the route's items), numbered afresh when another
 * writer took that number since `lastSequence` was read (`withNextNumbers`). A test delivery's
 * advance also writes its quota history, decided again on each round from the sequence as it is.
 */
export async function commitNumberedDelivery(
  idempotency: IdempotencyContext,
  redelivery: WebhookDelivery,
  shards: DeliveryShardHistory,
  lastSequence: number,
  respond: (delivery: WebhookDelivery) => StoredResponse,
  testUse?: TestDeliveryUse,
): Promise<StoredResponse> {
  const { merchantId, webhookEndpointId } = redelivery;
  return withNextNumbers(
    lastSequence,
    1,
    (last, sequenceItem) => {
      const numbered = withSequence(redelivery, last + 1);
      const advance = { merchantId, webhookEndpointId, from: last, to: last + 1 };
      return commitWithIdempotency(idempotency, respond(numbered), [
        ...buildCreateDelivery(numbered, numbered.createdAt, shards),
        buildAdvanceSequence(advance, testUse?.historyAfter(sequenceItem)),
      ]);
    },
    testUse?.sequenceItem,
  );
}
