import type { StageUnderTest } from './access-checks';
import { CheckFailure } from './check-failure';
import type { CheckRunner } from './check-runner';
import { deliveryDiagnosis } from './delivery-diagnosis';
import { payInvoiceByLink } from './paid-invoice';
import {
  deleteSmokeEndpoint,
  type RegisteredEndpoint,
  registerSmokeEndpoint,
  removeLeftBehindEndpoints,
} from './smoke-endpoints';
import { type ReceiverPlace, type SmokeReceiver, startSmokeReceiver } from './smoke-receiver';

export interface RoundTripOptions {
  readonly receiver: ReceiverPlace;
  readonly timeoutSeconds: number;
  /** Names this run's Idempotency-Keys, so a retried request acts once and another run acts anew. */
  readonly runId: string;
  /** Hands a stop to the command's signal handling; returns a way to take it back once done. */
  readonly onStop: (stop: () => Promise<void>) => () => void;
}

const PaidEvent = 'invoices.InvoicePaid';

/**
 * The sandbox's round trip: an endpoint registered at the smoke's own receiver, an invoice paid by
 * card through its pay link, its signed `invoices.InvoicePaid` received and verified with the
 * endpoint's secret, and the endpoint deleted, also when a step failed or the smoke is stopped.
 */
export async function checkWebhookRoundTrip(
  runner: CheckRunner,
  stage: StageUnderTest,
  options: RoundTripOptions,
): Promise<void> {
  const registered = await runner.run('webhook endpoint registered', () => register(stage, options));
  if (registered === undefined) return;
  const { receiver, endpoint, stops } = registered;
  try {
    const paid = await runner.run('invoice paid by card through its pay link', async () => {
      const invoice = await payInvoiceByLink(stage, options.runId);
      return { detail: `${invoice.invoiceId}, ${invoice.paymentId}`, value: invoice };
    });
    if (paid === undefined) return;
    await runner.run(`${PaidEvent} delivered and verified`, async () => {
      const timeoutMs = options.timeoutSeconds * 1_000;
      const delivery = await receiver
        .waitFor(
          (received) => received.type === PaidEvent && received.data.invoiceId === paid.invoiceId,
          timeoutMs,
        )
        .catch(async (error: unknown) => {
          if (!(error instanceof CheckFailure)) throw error;
          const service = await deliveryDiagnosis(stage, endpoint.webhookEndpointId, PaidEvent);
          throw new CheckFailure(`${error.message}; ${service}`);
        });
      const seconds = ((delivery.receivedAt - paid.paidAt) / 1_000).toFixed(1);
      return { detail: `${delivery.id}, ${seconds} s after the payment`, value: delivery };
    });
  } finally {
    await runner.run('webhook endpoint deleted', async () => {
      await deleteSmokeEndpoint(stage, endpoint.webhookEndpointId, `smoke-${options.runId}-delete`);
      return { detail: endpoint.webhookEndpointId, value: true };
    });
    await receiver.close();
    for (const drop of stops) drop();
  }
}

interface Registered {
  readonly receiver: SmokeReceiver;
  readonly endpoint: RegisteredEndpoint;
  /** Droppers of the stops handed to the signal handling, once the round trip cleaned up itself. */
  readonly stops: readonly (() => void)[];
}

async function register(stage: StageUnderTest, options: RoundTripOptions) {
  const receiver = await startSmokeReceiver(options.receiver);
  const dropReceiverStop = options.onStop(() => receiver.close());
  try {
    const removed = await removeLeftBehindEndpoints(stage, Date.now());
    const endpoint = await registerSmokeEndpoint(stage, receiver.url, `smoke-${options.runId}-endpoint`);
    receiver.trust(endpoint.signingSecret);
    const dropEndpointStop = options.onStop(() =>
      deleteSmokeEndpoint(stage, endpoint.webhookEndpointId, `smoke-${options.runId}-delete`),
    );
    const leftBehind = removed === 0 ? '' : `; ${removed} left by killed runs deleted`;
    const value: Registered = { receiver, endpoint, stops: [dropEndpointStop, dropReceiverStop] };
    return { detail: `${endpoint.webhookEndpointId} → ${new URL(receiver.url).origin}${leftBehind}`, value };
  } catch (error) {
    dropReceiverStop();
    await receiver.close();
    throw error;
  }
}
