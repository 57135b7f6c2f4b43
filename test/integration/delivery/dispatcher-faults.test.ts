import type { SQSEvent } from 'aws-lambda';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryMessage } from '../../../functions/delivery/delivery-message';
import { createDispatcher, type DispatcherDependencies } from '../../../functions/delivery/dispatcher';
import { createReconciler } from '../../../functions/delivery/reconciler';
import { sendWebhook } from '../../../functions/delivery/send-webhook';
import { newId } from '../../../functions/domain/ids';
import type { WebhookDelivery } from '../../../functions/domain/webhook-delivery';
import { signSpec } from '../../../functions/domain/webhook-signature';
import { secretSealer } from '../../../functions/secrets/secret-sealer-from-env';
import { getDelivery } from '../../../functions/store/webhook-deliveries';
import { withDocumentClientMiddleware } from '../../support/dynamodb-commands';
import { type HttpsReceiver, type ReceivedRequest, startHttpsReceiver } from '../../support/https-receiver';
import { storedEndpointWithDelivery } from '../../support/stored-endpoint';
import { useFreshTable } from '../../support/table-environment';
import { createTestCertificates, type TestCertificates } from '../../support/tls-certificates';

const merchantId = newId('mer');
const secret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
/** Long enough for a TLS handshake on a loaded machine, short enough that a hung receiver is cheap. */
const timeoutMs = 3_000;

let untrusted: TestCertificates;
const receivers: HttpsReceiver[] = [];

beforeAll(async () => {
  untrusted = await createTestCertificates(['localhost']);
});
beforeEach(async () => {
  await useFreshTable();
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(options: Parameters<typeof startHttpsReceiver>[0] = {}): Promise<HttpsReceiver> {
  const started = await startHttpsReceiver(options);
  receivers.push(started);
  return started;
}

function dispatcherWith(overrides: Partial<DispatcherDependencies> = {}) {
  return createDispatcher({
    send: sendWebhook,
    sealer: secretSealer,
    timeoutMs,
    retryDelaySeconds: 60,
    allowLoopback: true,
    ...overrides,
  });
}

/** An active endpoint at `url` and one pending delivery of it, due at `now`. */
async function deliveryTo(url: string, now = new Date()): Promise<WebhookDelivery> {
  return (await storedEndpointWithDelivery({ merchantId, url, secret, now })).delivery;
}

function batchOf(...messages: DeliveryMessage[]): SQSEvent {
  return {
    Records: messages.map((message, index) => ({ messageId: `m-${index}`, body: JSON.stringify(message) })),
  } as unknown as SQSEvent;
}

const firstMessage = (delivery: WebhookDelivery): DeliveryMessage => ({
  merchantId,
  shard: 0,
  webhookEndpointId: delivery.webhookEndpointId,
  webhookDeliveryId: delivery.webhookDeliveryId,
  attemptCount: 0,
});

const stored = (delivery: WebhookDelivery) =>
  getDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, []);

/**
 * The request's Merchant-Webhook-Signature is the one its own id, timestamp and body give with the secret.
 */
function expectSigned(request: ReceivedRequest): void {
  const id = request.headers['merchant-webhook-id'] ?? '';
  const timestamp = Number(request.headers['merchant-webhook-timestamp']);
  const body = request.rawBody.toString('utf8');
  expect(request.headers['merchant-webhook-signature']).toBe(signSpec({ secret, id, timestamp, body }));
}

describe('dispatcher: killed after the POST, before recording the attempt', () => {
  it('sends the same delivery id again once the lease runs out, signed afresh, and records it as the first attempt', async () => {
    const start = new Date();
    let clock = start;
    const hooks = await receiver();
    const delivery = await deliveryTo(hooks.url(), start);

    // Every DynamoDB write after the POST fails, as if the process died the moment it returned.
    let posted = false;
    const dying = dispatcherWith({
      now: () => clock,
      send: async (request) => {
        const outcome = await sendWebhook(request);
        posted = true;
        return outcome;
      },
    });
    const result = await withDocumentClientMiddleware(
      (next) => async (args) => {
        if (posted) throw new Error('process killed');
        return next(args);
      },
      () => dying(batchOf(firstMessage(delivery))),
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-0' }] });
    expect(hooks.requests).toHaveLength(1);
    expect((await stored(delivery))?.attemptCount).toBe(0);

    // The queue hands the message back while the lease still holds: nobody sends it a second time.
    const next = dispatcherWith({ now: () => clock });
    expect(await next(batchOf(firstMessage(delivery)))).toEqual({ batchItemFailures: [] });
    expect(hooks.requests).toHaveLength(1);

    // Ten minutes on, the lease is long gone and the reconciler finds the delivery overdue.
    clock = new Date(start.getTime() + 10 * 60_000);
    const requeued: DeliveryMessage[] = [];
    const reconcile = createReconciler({
      queue: { send: async (message) => void requeued.push(message) },
      now: () => clock,
    });
    expect(await reconcile()).toEqual({ requeued: 1 });
    expect(await next(batchOf(...requeued))).toEqual({ batchItemFailures: [] });

    const [first, second] = await hooks.waitFor(2, 15_000);
    expect(second?.headers['merchant-webhook-id']).toBe(delivery.webhookDeliveryId);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(second?.rawBody.equals(first?.rawBody ?? Buffer.alloc(0))).toBe(true);
    expect(Number(second?.headers['merchant-webhook-timestamp'])).toBeGreaterThan(
      Number(first?.headers['merchant-webhook-timestamp']),
    );
    for (const request of [first, second]) expectSigned(request as ReceivedRequest);
    // A receiver that keeps the ids it has seen handles the event once.
    expect(new Set(hooks.requests.map((request) => request.headers['merchant-webhook-id'])).size).toBe(1);

    const after = await stored(delivery);
    expect(after?.status).toBe('succeeded');
    expect(after?.attemptCount).toBe(1);
    expect(after?.attempts.map((attempt) => attempt.attemptNumber)).toEqual([1]);
    expect(hooks.requests).toHaveLength(2);
  }, 60_000);
});

describe('dispatcher: receivers that misbehave', () => {
  it('records one failed attempt with a useful errorMessage for each, and goes on delivering', async () => {
    const hung = await receiver({ respondWith: () => ({ status: 200, hang: true }) });
    const reset = await receiver({ respondWith: () => ({ status: 200, reset: true }) });
    const badCertificate = await receiver({ certificate: untrusted.server });
    const moved = await receiver({
      respondWith: () => ({ status: 301, headers: { location: healthy.url('/moved') } }),
    });
    const found = await receiver({
      respondWith: () => ({ status: 302, headers: { location: healthy.url('/found') } }),
    });
    const huge = await receiver({ respondWith: () => ({ status: 500, streamBytes: 64 * 1024 * 1024 }) });
    const healthy = await receiver();

    const cases = [
      { receiver: hung, errorMessage: `Timed out after ${timeoutMs} ms`, statusCode: null },
      {
        receiver: reset,
        errorMessage: 'Connection reset or closed before the response (ECONNRESET)',
        statusCode: null,
      },
      {
        receiver: badCertificate,
        errorMessage: expect.stringMatching(/^TLS certificate not accepted \([A-Z_]+\): \S/),
        statusCode: null,
      },
      { receiver: moved, errorMessage: 'Redirect 301 not followed', statusCode: 301 },
      { receiver: found, errorMessage: 'Redirect 302 not followed', statusCode: 302 },
      { receiver: huge, errorMessage: 'HTTP 500 Internal Server Error', statusCode: 500 },
    ];
    const deliveries = await Promise.all(cases.map(({ receiver }) => deliveryTo(receiver.url())));
    const dispatch = dispatcherWith();

    expect(await dispatch(batchOf(...deliveries.map(firstMessage)))).toEqual({ batchItemFailures: [] });

    for (const [index, { errorMessage, statusCode }] of cases.entries()) {
      const after = await stored(deliveries[index] as WebhookDelivery);
      expect(after?.status).toBe('pending');
      expect(after?.attempts).toEqual([
        {
          attemptNumber: 1,
          attemptedAt: expect.any(String),
          responseStatusCode: statusCode,
          durationMs: expect.any(Number),
          errorMessage,
        },
      ]);
    }
    expect(badCertificate.requests).toEqual([]);
    expect(healthy.requests).toEqual([]);

    // The same dispatcher, right after, delivers to a receiver that answers.
    const fine = await deliveryTo(healthy.url());
    expect(await dispatch(batchOf(firstMessage(fine)))).toEqual({ batchItemFailures: [] });
    expect((await stored(fine))?.status).toBe('succeeded');
    expect(healthy.requests).toHaveLength(1);
  }, 60_000);
});
