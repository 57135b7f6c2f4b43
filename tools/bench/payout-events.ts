import { EventType } from '../../functions/domain/invoice';
import type { ReceivedRequest } from '../../test/support/https-receiver';
import { expectOk } from '../../test/support/invoice-requests';
import { type ApiClient, newKey } from '../../test/support/local-runtime';

/** The event the bench has the service emit: a sandbox payout costs one write and emits one event. */
export const benchEventType = EventType.payoutCreated;

/** Creates one sandbox payout, which emits one `payouts.PayoutCreated`. */
export async function createPayoutEvent(api: ApiClient, merchantId: string): Promise<void> {
  expectOk(
    await api('POST', '/sandbox/payouts', {
      body: { merchantId, amount: 10_000, currency: 'USD' },
      idempotencyKey: newKey(),
    }),
  );
}

/** Subscribes `url` to the bench's event; returns the endpoint id and its signing secret. */
export async function subscribe(
  api: ApiClient,
  merchantId: string,
  url: string,
): Promise<{ webhookEndpointId: string; signingSecret: string }> {
  return expectOk(
    await api('POST', `/merchants/${merchantId}/webhook-endpoints`, {
      body: { url, eventTypes: [benchEventType] },
      idempotencyKey: newKey(),
    }),
  );
}

/**
 * Milliseconds from the event's creation to the delivery's arrival: `occurredAt` is the payout's
 * `createdAt`, stamped by the handler before its write, on this same machine's clock.
 */
export function eventToArrivalMs(request: ReceivedRequest): number {
  const delivery = JSON.parse(request.rawBody.toString('utf8')) as { data: { occurredAt: string } };
  return request.receivedAt - Date.parse(delivery.data.occurredAt);
}
