import { verifyWebhook } from '../../docs/receiving-webhooks/verify-webhook';
import { DeliveryStatus, type WebhookDelivery } from '../../functions/domain/webhook-delivery';
import { Answer, type AnsweredRequest } from './flaky-responder';

/**
 * At most 5 attempts in total (docs/receiving-webhooks.md#answering-retries-and-deduplication). Kept apart
 * from the dispatcher's own constant, so a change there shows here instead of moving the check along with it.
 */
export const attemptLimit = 5;

export interface DeliveryFigures {
  readonly byStatus: Readonly<Record<DeliveryStatus, number>>;
  readonly mostAttempts: number;
  /** Deliveries with more attempts than the service allows. */
  readonly overAttemptLimit: number;
  /** POSTs the receiver got. */
  readonly received: number;
  /** POSTs whose signature does not verify with the endpoint's secret. */
  readonly badSignatures: number;
  /** POSTs beyond the attempts their delivery recorded, or naming no delivery of the table. */
  readonly duplicates: number;
  /** Succeeded deliveries without exactly one accepted POST, and others with any. */
  readonly outcomeMismatches: number;
}

/**
 * Compares the deliveries in the table with what the receiver got and answered. A delivery is
 * matched to its POSTs by the `Merchant-Webhook-Id` header, which every attempt carries.
 */
export function deliveryFigures(input: {
  readonly deliveries: readonly WebhookDelivery[];
  readonly answered: readonly AnsweredRequest[];
  readonly signingSecret: string;
}): DeliveryFigures {
  const byStatus = { pending: 0, succeeded: 0, exhausted: 0 };
  const postsById = new Map<string, AnsweredRequest[]>();
  let badSignatures = 0;
  for (const answered of input.answered) {
    const { request } = answered;
    const verified = verifyWebhook({
      secret: input.signingSecret,
      headers: request.headers,
      rawBody: request.rawBody,
      now: new Date(request.receivedAt),
    });
    if (!verified.ok) badSignatures += 1;
    const id = request.headers['merchant-webhook-id'] ?? '';
    postsById.set(id, [...(postsById.get(id) ?? []), answered]);
  }
  let duplicates = 0;
  let outcomeMismatches = 0;
  for (const delivery of input.deliveries) {
    byStatus[delivery.status] += 1;
    const posts = postsById.get(delivery.webhookDeliveryId) ?? [];
    postsById.delete(delivery.webhookDeliveryId);
    duplicates += Math.max(0, posts.length - delivery.attemptCount);
    const accepted = posts.filter((post) => post.answer === Answer.accepted).length;
    if (accepted !== (delivery.status === DeliveryStatus.succeeded ? 1 : 0)) outcomeMismatches += 1;
  }
  for (const strays of postsById.values()) duplicates += strays.length;
  const attemptCounts = input.deliveries.map((delivery) => delivery.attemptCount);
  return {
    byStatus,
    mostAttempts: Math.max(0, ...attemptCounts),
    overAttemptLimit: attemptCounts.filter((count) => count > attemptLimit).length,
    received: input.answered.length,
    badSignatures,
    duplicates,
    outcomeMismatches,
  };
}
