import type { SQSEvent } from 'aws-lambda';
import type { DeliveryMessage } from '../../functions/delivery/delivery-message';
import { createDispatcher } from '../../functions/delivery/dispatcher';
import { createReconciler } from '../../functions/delivery/reconciler';
import { createRouter } from '../../functions/delivery/router';
import { sendWebhook } from '../../functions/delivery/send-webhook';
import { deliveryIdFor } from '../../functions/domain/webhook-delivery';
import { secretSealer } from '../../functions/secrets/secret-sealer-from-env';
import { type HttpsReceiver, startHttpsReceiver } from '../../test/support/https-receiver';
import {
  createInvoice,
  expectOk,
  type InvoiceRefs,
  invoiceAction,
  invoiceBody,
} from '../../test/support/invoice-requests';
import { invoiceFixtures } from '../../test/support/invoices';
import { apiClient, newKey, startTestRuntime, type TestRuntime } from '../../test/support/local-runtime';
import { cards, sandboxPayment, testCard } from '../../test/support/payment-requests';
import { streamEvent, streamRecord } from '../../test/support/stream-records';
import { runningUntilStopped } from '../bench/running-until-stopped';
import { type Measurements, PipelineSteps } from './capacity-model';
import { pipelineStep } from './consumed-capacity';
import { type MeasuredStep, measureEmailSteps } from './email-pipeline-steps';
import type { MeasureContext } from './measure-context';
import { type MeasurementRecorder, measurementRecorder, requestBytes } from './measurement-recorder';
import { measureStripeCheckout } from './stripe-checkout-steps';

/** Table items, as a scan of the runtime's table returns them. */
type Item = Record<string, unknown>;

/**
 * Measures every operation of the cost and capacity models (docs/performance.md): the API's
 * through a local runtime, the delivery pipeline's and the emails' steps called directly on the
 * same table once that runtime has stopped, then Stripe's Checkout on a production runtime of its
 * own. Each operation's DynamoDB units, by partition, and the bytes it sent to the internet.
 */
export async function measureOperations(context: MeasureContext): Promise<Measurements> {
  const recorder = measurementRecorder(context.dynamodb);
  const receiver = await runningUntilStopped(context, startHttpsReceiver({ caDir: context.caDir }));
  try {
    const t = await runningUntilStopped(
      context,
      startTestRuntime(
        { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, AUTH_CACHE_SECONDS: 3600 },
        { dynamodb: context.dynamodb },
      ),
    );
    let made: ApiOperations;
    let items: Item[];
    try {
      context.progress('the API operations');
      made = await measureApiOperations(recorder, t.value, receiver.value);
      items = await t.value.scanTable();
    } finally {
      // The pipeline's steps are called step by step on the same table once the runtime (and its own
      // pipeline, which routed every event while no endpoint listened) has stopped.
      await t.stop();
    }
    context.progress('the delivery pipeline and an email');
    const step = stepOf(recorder, receiver.value);
    await measureDeliverySteps(step, receiver.value, items, made);
    await measureEmailSteps(step, eventOf(items, 'invoices.InvoicePaid', 'invoiceId', made.invoiceId));
    context.progress("a payment through Stripe's Checkout");
    await measureStripeCheckout(recorder, context);
  } finally {
    await receiver.stop();
  }
  return recorder.measurements;
}

/** What the API operations made that the pipeline's steps work on. */
interface ApiOperations {
  readonly merchantId: string;
  readonly invoiceId: string;
  readonly paymentId: string;
  readonly endpoint: { readonly webhookEndpointId: string; readonly createdAt: string };
}

/** One step of the pipeline, called directly, its commands and the webhook requests it sent measured. */
function stepOf(recorder: MeasurementRecorder, receiver: HttpsReceiver): MeasuredStep {
  return async (name, act) => {
    const before = receiver.requests.length;
    const result = await recorder.measure(name, () => pipelineStep.run(name, act));
    const bytes = receiver.requests.slice(before).reduce((sum, request) => sum + requestBytes(request), 0);
    recorder.addSent(name, bytes);
    return result;
  };
}

/** The merchant's routes, the pay page's and the sandbox's, each measured once warm. */
async function measureApiOperations(
  recorder: MeasurementRecorder,
  t: TestRuntime,
  receiver: HttpsReceiver,
): Promise<ApiOperations> {
  const { merchantId } = t;
  const api = recorder.recorded(t.api);
  // Warm: the authorizer's cache for the key, and the cursor signing key a full page needs.
  const refs = await invoiceFixtures(api, merchantId);
  expectOk(
    await api('POST', '/customers', {
      body: { merchantId, name: 'Bo Buyer', email: 'bo@example.com' },
      idempotencyKey: newKey(),
    }),
  );
  expectOk(await api('GET', '/customers', { query: { merchantId, limit: 1 } }));
  const invoiceId = await measureInvoiceOperations(recorder, t, refs);
  const paymentId = await measurePaymentOperations(recorder, t, refs);
  // Every event so far is routed before the endpoint exists, so the runtime delivers none of them.
  await t.runtime.drainStream();
  const endpoint = await recorder.measure('createWebhookEndpoint', async () =>
    expectOk(
      await api('POST', `/merchants/${merchantId}/webhook-endpoints`, {
        body: { url: receiver.url(), eventTypes: ['payments.PaymentCreated'] },
        idempotencyKey: newKey(),
      }),
    ),
  );
  return { merchantId, invoiceId, paymentId, endpoint };
}

/** The catalog's, the customers' and an invoice's life through the pay page; the invoice's id. */
async function measureInvoiceOperations(
  recorder: MeasurementRecorder,
  t: TestRuntime,
  refs: InvoiceRefs,
): Promise<string> {
  const { merchantId } = t;
  const { measure } = recorder;
  const api = recorder.recorded(t.api);
  const post = (path: string, body: Record<string, unknown>) =>
    api('POST', path, { body, idempotencyKey: newKey() });
  await measure('createProduct', async () =>
    expectOk(await post('/catalog/products', { merchantId, name: 'Oolong', description: 'Tin, 50 g' })),
  );
  await measure('createCustomer', async () =>
    expectOk(await post('/customers', { merchantId, name: 'Cy Buyer', email: 'cy@example.com' })),
  );
  const invoice = await measure('createInvoice', async () =>
    expectOk(await createInvoice(api, invoiceBody(merchantId, refs))),
  );
  const { invoiceId } = invoice;
  await measure('getInvoice', async () =>
    expectOk(await api('GET', `/invoices/${invoiceId}`, { query: { merchantId } })),
  );
  const issued = await measure('issueInvoice', async () =>
    expectOk(await invoiceAction(api, merchantId, invoiceId, 'issue')),
  );
  await measure('recordInvoicePayment', async () =>
    expectOk(await invoiceAction(api, merchantId, invoiceId, 'payments', { amount: 100 })),
  );
  const draft = expectOk(await createInvoice(api, invoiceBody(merchantId, refs)));
  await measure('voidInvoice', async () =>
    expectOk(await invoiceAction(api, merchantId, draft.invoiceId, 'void')),
  );
  const rotated = await measure('rotateInvoiceUrlSlug', async () =>
    expectOk(await invoiceAction(api, merchantId, invoiceId, 'rotate-url-slug')),
  );
  const payer = recorder.recorded(apiClient(t.runtime.baseUrl, 'unused'));
  const slug = rotated.invoiceUrlSlug;
  await measure('getPayInvoice', async () =>
    expectOk(await payer('POST', '/pay/invoice', { authorization: null, body: { slug } })),
  );
  const amount = issued.amountRemaining.amount - 100;
  await measure('payInvoice', async () =>
    expectOk(
      await payer('POST', '/pay/payments', {
        authorization: null,
        idempotencyKey: newKey(),
        body: { slug, amount, paymentMethod: testCard(cards.succeeds) },
      }),
    ),
  );
  return invoiceId;
}

/** A sandbox payment, its refund and its read, and a full page of payments; the payment's id. */
async function measurePaymentOperations(
  recorder: MeasurementRecorder,
  t: TestRuntime,
  refs: InvoiceRefs,
): Promise<string> {
  const { merchantId } = t;
  const { measure } = recorder;
  const api = recorder.recorded(t.api);
  const body = { merchantId, customerId: refs.customerId, amount: 5000, currency: 'USD' };
  const pay = () => sandboxPayment(api, { ...body, paymentMethod: testCard(cards.succeeds) });
  const payment = await measure('createSandboxPayment', async () => expectOk(await pay()));
  await measure('refundSandboxPayment', async () =>
    expectOk(
      await api('POST', `/sandbox/payments/${payment.paymentId}/refunds`, {
        body: { merchantId, amount: 1000 },
        idempotencyKey: newKey(),
      }),
    ),
  );
  await measure('getPayment', async () =>
    expectOk(await api('GET', `/payments/${payment.paymentId}`, { query: { merchantId } })),
  );
  // A full default page (20) of payments, so the page reads what a busy merchant's page reads.
  for (let index = 0; index < 20; index += 1) expectOk(await pay());
  await measure('listPayments', async () =>
    expectOk(await api('GET', '/payments', { query: { merchantId } })),
  );
  return String(payment.paymentId);
}

/** The event item of `eventType` whose payload's `field` is `value`. */
function eventOf(items: readonly Item[], eventType: string, field: string, value: string): Item {
  const event = items.find(
    (item) =>
      item.entityType === 'Event' &&
      item.eventType === eventType &&
      (item.payload as Record<string, unknown>)[field] === value,
  );
  if (event === undefined) throw new Error(`no ${eventType} event of ${field} ${value}`);
  return event;
}

/**
 * A delivery through the router, the dispatcher and the reconciler, called step by step: the
 * payment's event routed to the endpoint, and another payment's, so each attempt's row measures a
 * delivery's first or second attempt.
 */
async function measureDeliverySteps(
  step: MeasuredStep,
  receiver: HttpsReceiver,
  items: readonly Item[],
  made: ApiOperations,
): Promise<void> {
  const { webhookEndpointId, createdAt } = made.endpoint;
  const event = eventOf(items, 'payments.PaymentCreated', 'paymentId', made.paymentId);
  const next = items.find(
    (item) => item.entityType === 'Event' && item.eventType === 'payments.PaymentCreated' && item !== event,
  );
  if (next === undefined) throw new Error('only one payment wrote an event');
  // An event reaches only endpoints that existed when it occurred, so these are routed as if they
  // occurred the moment the endpoint was created (a timestamp of the same length: the same units).
  const route = routeWith();
  await step(PipelineSteps.route, () => route({ ...event, createdAt }));
  await route({ ...next, createdAt });
  // The message the router sends: the endpoint keeps the default single delivery shard.
  const message = (of: Item): DeliveryMessage => ({
    merchantId: made.merchantId,
    shard: 0,
    webhookEndpointId,
    webhookDeliveryId: deliveryIdFor(String(of.eventId), webhookEndpointId),
    attemptCount: 0,
  });
  const dispatch = dispatchWith();
  // The endpoint's health is written only when it changes (docs/decisions/endpoint-health.md):
  // the first failure of a run and the success that ends it are measured apart from the others.
  receiver.respondWith(() => ({ status: 500, body: 'try later' }));
  await step(PipelineSteps.failedFirst, () => dispatch(message(event), 0));
  await step(PipelineSteps.failed, () => dispatch(message(next), 0));
  receiver.respondWith(() => ({ status: 200, body: 'ok' }));
  await step(PipelineSteps.succeededLast, () => dispatch(message(event), 1));
  await step(PipelineSteps.succeeded, () => dispatch(message(next), 1));
  if (receiver.requests.length !== 4)
    throw new Error(`the dispatcher sent ${receiver.requests.length} webhook requests, not 4`);
  await step(PipelineSteps.reconcile, async () => {
    await createReconciler({ queue: { send: async () => undefined } })();
  });
}

/** The router, given one event item as the stream would hand it over; throws when it fails it. */
function routeWith(): (event: Item) => Promise<void> {
  const router = createRouter({ queue: { send: async () => undefined } });
  return async (event) => {
    const result = await router(streamEvent(streamRecord('INSERT', { newImage: event })));
    if (result.batchItemFailures.length > 0) throw new Error('the router failed an event');
  };
}

/** The dispatcher, given one delivery's message at one attempt; throws when it fails the batch. */
function dispatchWith(): (message: DeliveryMessage, attemptCount: number) => Promise<void> {
  const dispatcher = createDispatcher({
    send: sendWebhook,
    sealer: secretSealer,
    timeoutMs: 10_000,
    retryDelaySeconds: 60,
    allowLoopback: true,
  });
  return async (message, attemptCount) => {
    const batch = {
      Records: [{ messageId: `m-${attemptCount}`, body: JSON.stringify({ ...message, attemptCount }) }],
    };
    const result = await dispatcher(batch as unknown as SQSEvent);
    if (result.batchItemFailures.length > 0) throw new Error('the dispatcher failed a delivery');
  };
}
