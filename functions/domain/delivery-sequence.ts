import { type WebhookDelivery, withSequence } from './webhook-delivery';

/** An endpoint's sequence moved from `from` (its last number, 0 before the first) to `to`. */
export interface SequenceAdvance {
  readonly merchantId: string;
  readonly webhookEndpointId: string;
  readonly from: number;
  readonly to: number;
}

/**
 * Gives each delivery the next number of its endpoint's sequence, in the order given, continuing
 * from the endpoint's last number (0 when it has none yet): an endpoint's k deliveries take the
 * next k numbers, with no gap, and its sequence advances by k
 * (docs/decisions/delivery-sequence-numbers-and-object-versions.md).
 */
export function numberDeliveries(
  deliveries: readonly WebhookDelivery[],
  lastSequences: ReadonlyMap<string, number>,
): { numbered: WebhookDelivery[]; advances: SequenceAdvance[] } {
  const advances = new Map<string, SequenceAdvance>();
  const numbered = deliveries.map((delivery) => {
    const { webhookEndpointId, merchantId } = delivery;
    const from = lastSequences.get(webhookEndpointId) ?? 0;
    const to = (advances.get(webhookEndpointId)?.to ?? from) + 1;
    advances.set(webhookEndpointId, { merchantId, webhookEndpointId, from, to });
    return withSequence(delivery, to);
  });
  return { numbered, advances: [...advances.values()] };
}
