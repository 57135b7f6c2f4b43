import type { WebhookDelivery } from './api-types';

/**
 * An endpoint's deliveries as its view lists them: newest first by the second they were created
 * in, which is all the table shows of the time, and within one second by sequence, highest first
 * (a delivery without one after those with one). The list the service answers is ordered by
 * delivery id, whose time is its event's, and by a hash within one millisecond, so deliveries
 * created in the same second may come in any order of their sequence.
 */
export function inListOrder(deliveries: readonly WebhookDelivery[]): WebhookDelivery[] {
  const second = (delivery: WebhookDelivery) => Math.floor(Date.parse(delivery.createdAt) / 1000);
  const sequence = (delivery: WebhookDelivery) => delivery.sequence ?? -1;
  return [...deliveries].sort((a, b) => second(b) - second(a) || sequence(b) - sequence(a));
}
