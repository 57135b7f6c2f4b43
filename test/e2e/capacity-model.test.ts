import { readFile, writeFile } from 'node:fs/promises';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import type { DeliveryMessage } from '../../functions/delivery/delivery-message';
import { createDispatcher } from '../../functions/delivery/dispatcher';
import { createReconciler } from '../../functions/delivery/reconciler';
import { createRouter } from '../../functions/delivery/router';
import { sendWebhook } from '../../functions/delivery/send-webhook';
import { deliveryIdFor } from '../../functions/domain/webhook-delivery';
import { secretSealer } from '../../functions/secrets/secret-sealer-from-env';
import { dispatcherQueue } from '../../lib/constructs/delivery-pipeline';
import { ruleMetricNames, webAclRules } from '../../lib/constructs/public-routes-web-acl';
import { stageSettings } from '../../lib/constructs/stage-settings';
import { committedStageConfig } from '../../lib/stage-config';
import { capacityDuring, type PartitionUnits, pipelineStep } from '../support/consumed-capacity';
import { e2eTest } from '../support/e2e-test';
import { EmailSteps, measureEmailSteps } from '../support/email-pipeline-steps';
import type { HttpsReceiver, ReceivedRequest } from '../support/https-receiver';
import {
  createInvoice,
  expectOk,
  invoiceAction,
  invoiceBody,
  issueInvoice,
} from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import {
  type ApiClient,
  type ApiResult,
  apiClient,
  newKey,
  startTestRuntime,
  type TestRuntime,
} from '../support/local-runtime';
import {
  figureNumber,
  handTypedFigures,
  staleFigures,
  unmarkedFigures,
  writeFigures,
} from '../support/model-figures';
import { cards, sandboxPayment, testCard } from '../support/payment-requests';
import {
  bytesPerGb,
  type CostLine,
  ceilingOf,
  daysPerMonth,
  floorWrite,
  type GatewayOption,
  gatewayOptionCost,
  generatedBlock,
  type HotKey,
  inputOf,
  lineCost,
  money,
  type OperationUnits,
  operationUnits,
  PartitionLimit,
  type PricedStage,
  percent,
  readModelInputs,
  renderCeilingsTable,
  renderCostTable,
  renderGatewayTable,
  renderMonthlyTable,
  renderUnitsTable,
  replaceGeneratedBlock,
  times,
  totalWrite,
} from '../support/performance-models';
import { streamEvent, streamRecord } from '../support/stream-records';
import {
  checkoutSession,
  paymentIntent,
  paymentIntentSucceededEvent,
  stripeSignature,
  testStripeSecretKey,
  testStripeWebhookSecret,
} from '../support/stripe-fixtures';
import { linkActiveStripeAccount, stripeEventId } from '../support/stripe-merchants';
import { type RecordedStripeRequest, startStripeRecordingServer } from '../support/stripe-recording-server';

/**
 * How far above its floor (the items it writes and the index entries it needs) a write may cost
 * (docs/decisions/keys-for-every-filter.md).
 */
const floorBudget = 1.3;

/**
 * A write allowed above the budget, with why, each checked to stay above it: none since a
 * customer's invoices moved to a keys-only index (GSI7). A write that goes over names its reason here.
 */
const overFloor: Partial<Record<string, string>> = {};

const docPath = new URL('../../docs/performance.md', import.meta.url);
/** The decision record on the merchant routes' gateway, whose table and figures come from the same model. */
const decisionPath = new URL('../../docs/decisions/http-api-for-merchant-routes.md', import.meta.url);
/** Set to rewrite the doc's generated tables from this run's measurements instead of checking them. */
const update = process.env.UPDATE_PERFORMANCE_MODELS === '1';

const measured = new Map<string, OperationUnits>();
/** What each measured operation sent to the internet: its answer, or the dispatcher's webhook request. */
const sent = new Map<string, number>();
let t: TestRuntime | undefined;
let receiver: HttpsReceiver;
/** The operation being measured, whose answers `recorded` counts. */
let sending: string | undefined;

async function measure<T>(operation: string, act: () => Promise<T>): Promise<T> {
  let result: T | undefined;
  sending = operation;
  const commands = await capacityDuring(async () => {
    result = await act();
  }).finally(() => {
    sending = undefined;
  });
  measured.set(operation, operationUnits(operation, commands));
  return result as T;
}

/** Headers Node's server adds to a local answer: API Gateway sends its own (`gatewayResponseBytes`). */
const localServerHeaders = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
]);

/** An answer's bytes besides the gateway's status line and headers: the function's headers and body. */
function answerBytes(result: ApiResult): number {
  if (result.bodyBytes === undefined)
    throw new Error('an answer without its byte count: call through apiClient');
  let bytes = result.bodyBytes;
  result.headers.forEach((value, name) => {
    if (!localServerHeaders.has(name)) bytes += Buffer.byteLength(`${name}: ${value}\r\n`);
  });
  return bytes;
}

/** `client`, with the bytes of each answer to a measured operation added to what it sent. */
function recorded(client: ApiClient): ApiClient {
  return async (...args) => {
    const result = await client(...args);
    if (sending !== undefined) sent.set(sending, (sent.get(sending) ?? 0) + answerBytes(result));
    return result;
  };
}

/**
 * A webhook request's bytes as sent: request line, headers and body. The receiver listens on a
 * port of this run, so its `Host` is counted without the port, as a merchant's host name would be.
 */
function requestBytes(request: ReceivedRequest): number {
  const headers = Object.entries(request.headers).map(
    ([name, value]) => `${name}: ${name === 'host' ? value.replace(/:\d+$/, '') : value}\r\n`,
  );
  const head = `${request.method} ${request.path} HTTP/1.1\r\n${headers.join('')}\r\n`;
  return Buffer.byteLength(head) + request.rawBody.length;
}

/** A request the service sent to Stripe's API, as `requestBytes` counts a webhook request. */
function stripeRequestBytes(request: RecordedStripeRequest): number {
  const headers = Object.entries(request.headers).map(
    ([name, value]) => `${name}: ${name === 'host' ? String(value).replace(/:\d+$/, '') : String(value)}\r\n`,
  );
  return (
    Buffer.byteLength(`${request.method} ${request.path} HTTP/1.1\r\n${headers.join('')}\r\n`) +
    Buffer.byteLength(request.rawBody)
  );
}

/** Production's payment through Stripe's Checkout, by its two operations. */
const StripeSteps = {
  session: 'createCheckoutSession',
  succeeded: 'receiveStripeEvent: payment_intent.succeeded',
} as const;

/**
 * Production's way of paying, on a runtime of its own (the sandbox has neither route): the payer's
 * Checkout Session, then Stripe's `payment_intent.succeeded` through the webhook, which pays the
 * invoice. Stripe is the recording server; what the route sends it is counted as sent.
 */
async function measureStripeCheckout(): Promise<void> {
  const stripe = await startStripeRecordingServer();
  const production = await startTestRuntime({
    STAGE: 'production',
    STRIPE_SECRET_KEY: testStripeSecretKey,
    STRIPE_WEBHOOK_SECRET: testStripeWebhookSecret,
    STRIPE_API_BASE_URL: stripe.baseUrl,
  });
  try {
    const { api, merchantId } = production;
    const accountId = 'acct_1CapacityModel';
    const refs = await invoiceFixtures(api, merchantId);
    await linkActiveStripeAccount(production.runtime, production, stripe, accountId);
    const invoice = await issueInvoice(api, merchantId, refs);
    const amount = invoice.amountRemaining.amount;
    const now = Math.floor(Date.now() / 1000);
    stripe.answer('POST', '/v1/checkout/sessions', {
      body: checkoutSession(
        'cs_1CapacityModel',
        'https://checkout.stripe.com/c/pay/cs_1CapacityModel',
        now + 1800,
      ),
    });
    const client = recorded(apiClient(production.runtime.baseUrl, 'unused'));
    await measure(StripeSteps.session, async () =>
      expectOk(
        await client('POST', '/pay/checkout-sessions', {
          authorization: null,
          idempotencyKey: newKey(),
          body: { slug: invoice.invoiceUrlSlug, amount, paymentMethodType: 'card' },
        }),
      ),
    );
    const toStripe = stripe.requestsTo('POST', '/v1/checkout/sessions');
    expect(toStripe).toHaveLength(1);
    sent.set(
      StripeSteps.session,
      (sent.get(StripeSteps.session) ?? 0) + stripeRequestBytes(toStripe[0] as RecordedStripeRequest),
    );
    const intent = paymentIntent(
      'pi_1CapacityModel',
      { merchantId, invoiceId: invoice.invoiceId },
      { amount },
    );
    const event = JSON.stringify(paymentIntentSucceededEvent(stripeEventId(), accountId, intent, now));
    const receipt = await measure(StripeSteps.succeeded, async () =>
      expectOk(
        await client('POST', '/processors/stripe/events', {
          authorization: null,
          rawBody: event,
          headers: { 'Stripe-Signature': stripeSignature(event) },
        }),
      ),
    );
    expect(receipt.outcome).toBe('applied');
    const paid = expectOk(await api('GET', `/invoices/${invoice.invoiceId}`, { query: { merchantId } }));
    expect(paid.status).toBe('paid');
  } finally {
    await production.stop();
    await stripe.close();
  }
}

/** One step of the delivery pipeline, called directly so its commands are told apart from others. */
async function step<T>(name: string, act: () => Promise<T>): Promise<T> {
  const before = receiver.requests.length;
  const result = await measure(name, () => pipelineStep.run(name, act));
  sent.set(
    name,
    receiver.requests.slice(before).reduce((sum, request) => sum + requestBytes(request), 0),
  );
  return result;
}

const test = e2eTest({ WEBHOOK_ALLOW_PRIVATE_TARGETS: true, AUTH_CACHE_SECONDS: 3600 });

test.beforeAll(async ({ t: runtime, receiver: started }) => {
  [t, receiver] = [runtime, started];
  const { merchantId } = runtime;
  const api = recorded(runtime.api);
  const post = (path: string, body: Record<string, unknown>) =>
    api('POST', path, { body, idempotencyKey: newKey() });
  const get = (path: string, query: Record<string, string | number> = {}) =>
    api('GET', path, { query: { merchantId, ...query } });

  // Warm: the authorizer's cache for the key, and the cursor signing key a full page needs.
  const refs = await invoiceFixtures(api, merchantId);
  expectOk(await post('/customers', { merchantId, name: 'Bo Buyer', email: 'bo@example.com' }));
  expectOk(await get('/customers', { limit: 1 }));

  const paymentBody = { merchantId, customerId: refs.customerId, amount: 5000, currency: 'USD' };
  await measure('createProduct', async () =>
    expectOk(await post('/catalog/products', { merchantId, name: 'Oolong', description: 'Tin, 50 g' })),
  );
  await measure('createCustomer', async () =>
    expectOk(await post('/customers', { merchantId, name: 'Cy Buyer', email: 'cy@example.com' })),
  );
  const invoice = await measure('createInvoice', async () =>
    expectOk(await createInvoice(api, invoiceBody(merchantId, refs))),
  );
  await measure('getInvoice', async () => expectOk(await get(`/invoices/${invoice.invoiceId}`)));
  const issued = await measure('issueInvoice', async () =>
    expectOk(await invoiceAction(api, merchantId, invoice.invoiceId, 'issue')),
  );
  await measure('recordInvoicePayment', async () =>
    expectOk(await invoiceAction(api, merchantId, invoice.invoiceId, 'payments', { amount: 100 })),
  );
  const draft = expectOk(await createInvoice(api, invoiceBody(merchantId, refs)));
  await measure('voidInvoice', async () =>
    expectOk(await invoiceAction(api, merchantId, draft.invoiceId, 'void')),
  );
  const rotated = await measure('rotateInvoiceUrlSlug', async () =>
    expectOk(await invoiceAction(api, merchantId, invoice.invoiceId, 'rotate-url-slug')),
  );
  const payer = recorded(apiClient(t.runtime.baseUrl, 'unused'));
  await measure('getPayInvoice', async () =>
    expectOk(
      await payer('POST', '/pay/invoice', { authorization: null, body: { slug: rotated.invoiceUrlSlug } }),
    ),
  );
  const remaining = issued.amountRemaining.amount - 100;
  await measure('payInvoice', async () =>
    expectOk(
      await payer('POST', '/pay/payments', {
        authorization: null,
        idempotencyKey: newKey(),
        body: { slug: rotated.invoiceUrlSlug, amount: remaining, paymentMethod: testCard(cards.succeeds) },
      }),
    ),
  );
  const payment = await measure('createSandboxPayment', async () =>
    expectOk(await sandboxPayment(api, { ...paymentBody, paymentMethod: testCard(cards.succeeds) })),
  );
  await measure('refundSandboxPayment', async () =>
    expectOk(await post(`/sandbox/payments/${payment.paymentId}/refunds`, { merchantId, amount: 1000 })),
  );
  await measure('getPayment', async () => expectOk(await get(`/payments/${payment.paymentId}`)));
  // A full default page (20) of payments, so the page reads what a busy merchant's page reads.
  for (let index = 0; index < 20; index += 1) {
    expectOk(await sandboxPayment(api, { ...paymentBody, paymentMethod: testCard(cards.succeeds) }));
  }
  await measure('listPayments', async () => expectOk(await get('/payments')));
  // Every event so far is routed before the endpoint exists, so the runtime delivers none of them.
  await t.runtime.drainStream();
  const endpoint = await measure('createWebhookEndpoint', async () =>
    expectOk(
      await api('POST', `/merchants/${merchantId}/webhook-endpoints`, {
        body: { url: receiver.url(), eventTypes: ['payments.PaymentCreated'] },
        idempotencyKey: newKey(),
      }),
    ),
  );

  // The pipeline, called step by step on the same table once the runtime (and its own pipeline,
  // which routed every event above while no endpoint listened) has stopped.
  const items = await t.scanTable();
  await t.stop();
  t = undefined;
  const event = items.find(
    (item) =>
      item.entityType === 'Event' &&
      item.eventType === 'payments.PaymentCreated' &&
      (item.payload as { paymentId?: string }).paymentId === payment.paymentId,
  );
  if (event === undefined) throw new Error('the payment wrote no event');
  // An event reaches only endpoints that existed when it occurred, so this one is routed as if it
  // occurred the moment the endpoint was created (a timestamp of the same length: the same units).
  const routedEvent = { ...event, createdAt: endpoint.createdAt };
  const router = createRouter({ queue: { send: async () => undefined } });
  const dispatcher = createDispatcher({
    send: sendWebhook,
    sealer: secretSealer,
    timeoutMs: 10_000,
    retryDelaySeconds: 60,
    allowLoopback: true,
  });
  // The message the router sends: the endpoint keeps the default single delivery shard.
  const message: DeliveryMessage = {
    merchantId,
    shard: 0,
    webhookEndpointId: endpoint.webhookEndpointId,
    webhookDeliveryId: deliveryIdFor(String(event.eventId), endpoint.webhookEndpointId),
    attemptCount: 0,
  };
  const dispatch = async (of: DeliveryMessage, attemptCount: number) => {
    const batch = {
      Records: [{ messageId: `m-${attemptCount}`, body: JSON.stringify({ ...of, attemptCount }) }],
    };
    expect(await dispatcher(batch as unknown as SQSEvent)).toEqual({ batchItemFailures: [] });
  };
  const route = async (routed: Record<string, unknown>) => {
    expect(await router(streamEvent(streamRecord('INSERT', { newImage: routed })))).toEqual({
      batchItemFailures: [],
    });
  };
  await step('router: event → delivery', () => route(routedEvent));
  // Another event's delivery to the same endpoint, so each row measures a delivery's first or
  // second attempt, as before the endpoint's health was kept.
  const next = items.find(
    (item) => item.entityType === 'Event' && item.eventType === 'payments.PaymentCreated' && item !== event,
  );
  if (next === undefined) throw new Error('only one payment wrote an event');
  await route({ ...next, createdAt: endpoint.createdAt });
  const nextMessage = {
    ...message,
    webhookDeliveryId: deliveryIdFor(String(next.eventId), endpoint.webhookEndpointId),
  };
  // The endpoint's health is written only when it changes (docs/decisions/endpoint-health.md):
  // the first failure of a run and the success that ends it are measured apart from the others.
  receiver.respondWith(() => ({ status: 500, body: 'try later' }));
  await step('dispatcher: failed attempt, first of a run', () => dispatch(message, 0));
  await step('dispatcher: failed attempt', () => dispatch(nextMessage, 0));
  receiver.respondWith(() => ({ status: 200, body: 'ok' }));
  await step('dispatcher: successful attempt, ending a run', () => dispatch(message, 1));
  await step('dispatcher: successful attempt', () => dispatch(nextMessage, 1));
  expect(receiver.requests).toHaveLength(4);
  await step('reconciler: one pass', async () => {
    await createReconciler({ queue: { send: async () => undefined } })();
  });
  // An invoice's email the same way: its receipt event routed again, sent, and bounced.
  const paid = items.find(
    (item) =>
      item.entityType === 'Event' &&
      item.eventType === 'invoices.InvoicePaid' &&
      (item.payload as { invoiceId?: string }).invoiceId === invoice.invoiceId,
  );
  if (paid === undefined) throw new Error('the paid invoice wrote no event');
  await measureEmailSteps(step, paid);
  await measureStripeCheckout();
}, 180_000);

/** Operations as the doc lists them, by route class, then the pipeline. */
const operationOrder = [
  'getInvoice',
  'getPayment',
  'listPayments',
  'getPayInvoice',
  'createProduct',
  'createCustomer',
  'createInvoice',
  'createWebhookEndpoint',
  'issueInvoice',
  'voidInvoice',
  'recordInvoicePayment',
  'rotateInvoiceUrlSlug',
  'createSandboxPayment',
  'payInvoice',
  'refundSandboxPayment',
  StripeSteps.session,
  StripeSteps.succeeded,
  'router: event → delivery',
  'dispatcher: failed attempt',
  'dispatcher: successful attempt',
  'dispatcher: failed attempt, first of a run',
  'dispatcher: successful attempt, ending a run',
  'reconciler: one pass',
  EmailSteps.route,
  EmailSteps.send,
  EmailSteps.bounce,
];

const merchantPartition = (unit: { index: string; partition: string }) =>
  unit.index === 'table' && unit.partition === 'MERCHANT#<mer>';
const deliveryOperations = ['router: event → delivery', 'dispatcher: successful attempt'];
/**
 * What a merchant's write shards spread: every item of its partition but the two counters and the
 * rarely written catalog, customer, endpoint and merchant items (measured here for one shard, so
 * the units are those the shards share evenly, the shard of a new item being drawn at random).
 */
const movesWithShards = (unit: PartitionUnits) =>
  merchantPartition(unit) && /^(PAYMENT|REFUND|INVOICE|INVOICE_PAYMENT|PAYOUT)#/.test(unit.item);
const paymentOperations = ['createSandboxPayment', 'payInvoice', 'refundSandboxPayment'];

/** The write units `operations` put on the partitions `matches` picks, as measured. */
const writesOn = (operations: string[], matches: (unit: PartitionUnits) => boolean) =>
  operations
    .flatMap((operation) => measured.get(operation)?.units ?? [])
    .filter(matches)
    .reduce((total, unit) => total + unit.write, 0);

const hotKeys: HotKey[] = [
  {
    key: 'MERCHANT#<mer>',
    rate: 'sandbox (card) payments/s, one merchant',
    operations: ['createSandboxPayment'],
    matches: merchantPartition,
    kind: 'write',
  },
  {
    key: 'MERCHANT#<mer>',
    rate: 'pay-link payments/s, one merchant',
    operations: ['payInvoice'],
    matches: merchantPartition,
    kind: 'write',
  },
  {
    key: 'MERCHANT#<mer>',
    rate: 'refunds/s, one merchant',
    operations: ['refundSandboxPayment'],
    matches: merchantPartition,
    kind: 'write',
  },
  {
    key: 'MERCHANT#<mer>',
    rate: 'invoice creates/s, one merchant',
    operations: ['createInvoice'],
    matches: merchantPartition,
    kind: 'write',
  },
  {
    key: 'MERCHANT#<mer> › COUNTER#INVOICE_NUMBER',
    rate: 'invoice creates/s, one merchant (one item)',
    operations: ['createInvoice'],
    matches: (unit) => merchantPartition(unit) && unit.item === 'COUNTER#INVOICE_NUMBER',
    kind: 'write',
  },
  {
    key: 'MERCHANT#<mer>',
    rate: 'deliveries/s of one merchant (endpoint reads)',
    operations: deliveryOperations,
    matches: merchantPartition,
    kind: 'read',
  },
  {
    key: 'GSI1 MERCHANT#<mer>#INVOICES#paid',
    rate: 'invoices paid/s, one merchant',
    operations: ['payInvoice'],
    matches: (unit) => unit.index === 'GSI1' && unit.partition === 'MERCHANT#<mer>#INVOICES#paid',
    kind: 'write',
  },
  {
    key: 'GSI1 MERCHANT#<mer>#INVOICES#issued',
    rate: 'invoices issued/s, one merchant',
    operations: ['issueInvoice'],
    matches: (unit) => unit.index === 'GSI1' && unit.partition === 'MERCHANT#<mer>#INVOICES#issued',
    kind: 'write',
  },
  {
    key: 'MERCHANT#<mer>, #S1 … #S7 (8 write shards)',
    rate: 'sandbox (card) payments/s, one merchant',
    operations: ['createSandboxPayment'],
    matches: movesWithShards,
    kind: 'write',
    spreadOver: 8,
  },
  {
    key: 'MERCHANT#<mer>, #S1 … #S7 (8 write shards)',
    rate: 'pay-link payments/s, one merchant',
    operations: ['payInvoice'],
    matches: movesWithShards,
    kind: 'write',
    spreadOver: 8,
  },
  {
    key: 'MERCHANT#<mer>, #S1 … #S7 (8 write shards)',
    rate: 'refunds/s, one merchant',
    operations: ['refundSandboxPayment'],
    matches: movesWithShards,
    kind: 'write',
    spreadOver: 8,
  },
  {
    key: 'GSI1 MERCHANT#<mer>#INVOICES#paid, #S1 … #S7 (8 write shards)',
    rate: 'invoices paid/s, one merchant',
    operations: ['payInvoice'],
    matches: (unit) => unit.index === 'GSI1' && unit.partition === 'MERCHANT#<mer>#INVOICES#paid',
    kind: 'write',
    spreadOver: 8,
  },
  {
    key: 'DELIVERIES#<whk>',
    rate: 'deliveries/s to one endpoint, first attempt succeeds',
    operations: deliveryOperations,
    matches: (unit) => unit.index === 'table' && unit.partition === 'DELIVERIES#<whk>',
    kind: 'write',
  },
  {
    key: 'DELIVERIES#<whk>',
    rate: 'deliveries/s to one endpoint, one retry',
    operations: [...deliveryOperations, 'dispatcher: failed attempt'],
    matches: (unit) => unit.index === 'table' && unit.partition === 'DELIVERIES#<whk>',
    kind: 'write',
  },
  {
    key: 'DELIVERIES#<whk>, #S1 … #S3 (4 delivery shards)',
    rate: 'deliveries/s to one endpoint, one retry',
    operations: [...deliveryOperations, 'dispatcher: failed attempt'],
    matches: (unit) => unit.index === 'table' && unit.partition === 'DELIVERIES#<whk>',
    kind: 'write',
    spreadOver: 4,
  },
  {
    key: 'DELIVERIES#<whk>, #S1 … #S15 (16 delivery shards)',
    rate: 'deliveries/s to one endpoint, one retry',
    operations: [...deliveryOperations, 'dispatcher: failed attempt'],
    matches: (unit) => unit.index === 'table' && unit.partition === 'DELIVERIES#<whk>',
    kind: 'write',
    spreadOver: 16,
  },
  {
    key: 'GSI1 DUE_DELIVERIES#nn (16 shards)',
    rate: 'deliveries/s, whole service, first attempt succeeds',
    operations: deliveryOperations,
    matches: (unit) => unit.index === 'GSI1' && unit.partition === 'DUE_DELIVERIES#nn',
    kind: 'write',
    spreadOver: 16,
  },
];

const costLines: CostLine[] = [
  {
    name: 'GET one invoice',
    operations: ['getInvoice'],
    lambda: [{ invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'List page of 20 payments',
    operations: ['listPayments'],
    lambda: [{ invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'Pay page view of an invoice',
    operations: ['getPayInvoice'],
    lambda: [{ invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'Create an invoice',
    operations: ['createInvoice'],
    lambda: [{ invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'Transition (issue an invoice)',
    operations: ['issueInvoice'],
    lambda: [{ invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'Payment (sandbox card)',
    operations: ['createSandboxPayment'],
    lambda: [{ invocations: 'one', durationMs: 'paymentRouteMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'Payment (pay link)',
    operations: ['payInvoice'],
    lambda: [{ invocations: 'one', durationMs: 'paymentRouteMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'Webhook delivery, first attempt succeeds',
    operations: deliveryOperations,
    lambda: [
      { invocations: 'routerInvocationsPerDelivery', durationMs: 'routerMs', initMs: 'routerInitMs' },
      { invocations: 'one', durationMs: 'dispatcherMs', initMs: 'dispatcherInitMs' },
    ],
    apiRequests: 0,
    sqsRequests: 'sqsRequestsPerAttempt',
    logBytes: 'logBytesPerDelivery',
  },
  {
    name: 'One retry more (a failed attempt)',
    operations: ['dispatcher: failed attempt'],
    lambda: [
      { invocations: 'one', durationMs: 'routerMs', initMs: 'routerInitMs' },
      { invocations: 'one', durationMs: 'dispatcherMs', initMs: 'dispatcherInitMs' },
    ],
    apiRequests: 0,
    sqsRequests: 'sqsRequestsPerAttempt',
    logBytes: 'logBytesPerDelivery',
  },
  {
    name: 'Invoice email, sent',
    operations: [EmailSteps.route, EmailSteps.send],
    lambda: [
      { invocations: 'one', durationMs: 'routerMs', initMs: 'routerInitMs' },
      { invocations: 'one', durationMs: 'mailerMs', initMs: 'mailerInitMs' },
    ],
    apiRequests: 0,
    sqsRequests: 'sqsRequestsPerAttempt',
    emails: 'one',
    logBytes: 'logBytesPerEmail',
  },
  {
    name: 'Bounce of an email, recorded',
    operations: [EmailSteps.bounce],
    lambda: [{ invocations: 'one', durationMs: 'sesEventsMs', initMs: 'sesEventsInitMs' }],
    apiRequests: 0,
    sqsRequests: undefined,
    snsNotifications: 'one',
    logBytes: 'logBytesPerSesEvent',
  },
  {
    // Production's: the payer's Checkout Session (a payment route, waiting on Stripe), then Stripe's
    // event that pays the invoice. Stripe's fee is the merchant's (a direct charge), not in the row.
    name: 'Payment through Stripe Checkout',
    operations: [StripeSteps.session, StripeSteps.succeeded],
    lambda: [
      { invocations: 'one', durationMs: 'paymentRouteMs', initMs: 'routeInitMs' },
      { invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' },
    ],
    apiRequests: 2,
    sqsRequests: undefined,
    logBytes: 'logBytesPerStripePayment',
  },
];

/** The stage the per-million figures price: production, with the sampling and retention of its stage file. */
const pricedStage: PricedStage = {
  name: 'production',
  traceSampling: committedStageConfig('production').traceSampling,
  logRetentionDays: committedStageConfig('production').logRetentionDays,
};

/** The rate the key question asks of one merchant or one endpoint. */
const questionRate = 500;

const unitsOf = (operation: string) => {
  const found = measured.get(operation);
  if (found === undefined) throw new Error(`${operation} was not measured`);
  return found.units;
};
/** The units `operations` put on the partitions `matches` picks, of one kind. */
const unitsOn = (
  operations: readonly string[],
  matches: (unit: PartitionUnits) => boolean,
  kind: 'read' | 'write' = 'write',
) =>
  operations
    .flatMap(unitsOf)
    .filter(matches)
    .reduce((total, unit) => total + unit[kind], 0);
const all = () => true;
const onTable = (prefix: string) => (unit: PartitionUnits) =>
  unit.index === 'table' && unit.partition.startsWith(prefix);
const onItem = (prefix: string) => (unit: PartitionUnits) =>
  merchantPartition(unit) && unit.item.startsWith(prefix);
const onIndex = (index: string, partition?: string) => (unit: PartitionUnits) =>
  unit.index === index && (partition === undefined || unit.partition === partition);
const endpointPartition = (unit: PartitionUnits) =>
  unit.index === 'table' && unit.partition === 'DELIVERIES#<whk>';
const dueShards = onIndex('GSI1', 'DUE_DELIVERIES#nn');
const retried = [...deliveryOperations, 'dispatcher: failed attempt'];
const invoiceLife = ['createInvoice', 'issueInvoice', 'getPayInvoice', 'getPayInvoice', 'payInvoice'];

/** Every figure the model's prose states, by the name its marker carries in the doc. */
function modelFigures(inputs: Record<string, number>): Map<string, string> {
  const input = inputOf(inputs);
  const n = figureNumber;
  const perSecond = (value: number) => `${n(value)}/s`;
  const writes = (operation: string, matches: (unit: PartitionUnits) => boolean) =>
    unitsOn([operation], matches);
  const priced = (line: number, overrides: Record<string, number> = {}) =>
    lineCost(costLines[line] as CostLine, measured, sent, { ...inputs, ...overrides }, pricedStage);
  const read = priced(0);
  const list = priced(1);
  const delivery = priced(7);
  const email = priced(9);
  const bounce = priced(10);
  const checkout = priced(11);
  const freeGb = 100;
  const lifeRead = unitsOn(invoiceLife, all, 'read');
  const lifeWrite = unitsOn(invoiceLife, all);
  const production = committedStageConfig('production').throttle;
  const inFlight = dispatcherQueue.maxConcurrency * dispatcherQueue.batchSize;
  const payments = paymentOperations.map((operation) => writesOn([operation], movesWithShards));
  const listRead = unitsOn(['listPayments'], all, 'read');
  const shardsFor = (units: number) => n(Math.ceil((questionRate * units) / PartitionLimit.write));
  const figures: [string, string][] = [
    ['partition.write', n(PartitionLimit.write)],
    ['partition.read', n(PartitionLimit.read)],
    ['partition.half', n(PartitionLimit.write / 2)],
    ['card.idempotency', n(writes('createSandboxPayment', onTable('IDEMPOTENCY#')))],
    ['card.merchant', n(writesOn(['createSandboxPayment'], merchantPartition))],
    ['card.event', n(writes('createSandboxPayment', onTable('EVENT#')))],
    ['card.eventIndexes', n(writes('createSandboxPayment', (unit) => unit.index !== 'table'))],
    ['card.wru', n(writes('createSandboxPayment', all))],
    ['payLink.invoice', n(writes('payInvoice', onItem('INVOICE#')))],
    ['payLink.gsi3', n(writes('payInvoice', onIndex('GSI3')))],
    ['payLink.wru', n(writes('payInvoice', all))],
    ['payLink.merchant', n(writesOn(['payInvoice'], merchantPartition))],
    ['payLink.rru', n(unitsOn(['payInvoice'], all, 'read'))],
    ['payLink.ceiling', ceilingOf(writesOn(['payInvoice'], merchantPartition), 'write')],
    ['payView.rru', n(unitsOn(['getPayInvoice'], all, 'read'))],
    ['issue.gsi3', n(writes('issueInvoice', onIndex('GSI3')))],
    ['rotate.gsi3', n(writes('rotateInvoiceUrlSlug', onIndex('GSI3')))],
    [
      'create.merchantRead',
      n(unitsOn(['createInvoice'], (unit) => merchantPartition(unit) && unit.item === 'MERCHANT', 'read')),
    ],
    ['invoiceLife.rru', n(lifeRead)],
    ['invoiceLife.wru', n(lifeWrite)],
    [
      'invoiceLife.dynamodb',
      money(lifeRead * input('readRequestUnit') + lifeWrite * input('writeRequestUnit')),
    ],
    ['refund.payment', n(writes('refundSandboxPayment', onItem('PAYMENT#')))],
    ['refund.refund', n(writes('refundSandboxPayment', onItem('REFUND#')))],
    ['refund.merchant', n(writesOn(['refundSandboxPayment'], merchantPartition))],
    ['refund.ceiling', ceilingOf(writesOn(['refundSandboxPayment'], merchantPartition), 'write')],
    ['route.endpoint', n(writes('router: event → delivery', endpointPartition))],
    ['route.due', n(writes('router: event → delivery', dueShards))],
    ['route.gsi5', n(writes('router: event → delivery', onIndex('GSI5')))],
    ['success.endpoint', n(writes('dispatcher: successful attempt', endpointPartition))],
    ['success.due', n(writes('dispatcher: successful attempt', dueShards))],
    ['failure.endpoint', n(writes('dispatcher: failed attempt', endpointPartition))],
    ['failure.due', n(writes('dispatcher: failed attempt', dueShards))],
    ['delivery.wru', n(unitsOn(deliveryOperations, all))],
    ['delivery.rru', n(unitsOn(deliveryOperations, all, 'read'))],
    [
      'health.wru',
      n(
        writes('dispatcher: failed attempt, first of a run', all) - writes('dispatcher: failed attempt', all),
      ),
    ],
    ['reconciler.queries', n(measured.get('reconciler: one pass')?.commands.length ?? 0)],
    ['reconciler.rru', n(unitsOn(['reconciler: one pass'], all, 'read'))],
    ['email.routerRru', n(unitsOn([EmailSteps.route], all, 'read'))],
    ['email.routerWru', n(writes(EmailSteps.route, all))],
    ['email.mailerRru', n(unitsOn([EmailSteps.send], all, 'read'))],
    ['email.mailerWru', n(writes(EmailSteps.send, all))],
    ['email.due', n(unitsOn([EmailSteps.route, EmailSteps.send], onIndex('GSI1')))],
    ['email.hour', n(writes(EmailSteps.send, onItem('EMAIL_HOUR#')))],
    ['bounce.wru', n(writes(EmailSteps.bounce, all))],
    ['email.total', money(email.total)],
    ['email.ses', money(email.ses)],
    ['email.dynamodb', money(email.dynamodb)],
    ['bounce.total', money(bounce.total)],
    ['bounce.sns', money(bounce.sns)],
    ['checkout.sessionWru', n(writes(StripeSteps.session, all))],
    ['checkout.eventWru', n(writes(StripeSteps.succeeded, all))],
    ['checkout.total', money(checkout.total)],
    ['checkout.dynamodb', money(checkout.dynamodb)],
    ['checkout.api', money(checkout.api)],
    ['checkout.bytesOut', n(checkout.bytesOut)],
    ['sampling.production', percent(pricedStage.traceSampling.fixedRate)],
    ['read.api', money(read.api)],
    ['read.total', money(read.total)],
    ['read.waf', money(read.waf)],
    ['read.xray', money(read.xray)],
    ['free.dataOut', money(freeGb * input('dataTransferOutGb'))],
    ['free.reads', n(Math.round((freeGb * bytesPerGb) / read.bytesOut / 1e6))],
    ['read.bytesOut', n(read.bytesOut)],
    ['read.dataOut', money(read.dataOut)],
    ['list.bytesOut', n(list.bytesOut)],
    ['list.dataOut', money(list.dataOut)],
    ['delivery.bytesOut', n(delivery.bytesOut)],
    ['delivery.dataOut', money(delivery.dataOut)],
    ['read.init', money(read.lambdaInit)],
    ['read.initAllCold', money(priced(0, { coldStartShare: 1 }).lambdaInit)],
    ['delivery.init', money(delivery.lambdaInit)],
    ['logs.retention', n(pricedStage.logRetentionDays)],
    ['logs.months', n(pricedStage.logRetentionDays / daysPerMonth)],
    ['logs.monthDays', n(daysPerMonth)],
    ['read.logStorage', money(read.logStorage)],
    ['counter.ceiling', ceilingOf(writes('createInvoice', onItem('COUNTER#INVOICE_NUMBER')), 'write')],
    ['sequence.wru', n(writes('router: event → delivery', onItem('WEBHOOK_DELIVERY_SEQUENCE#')))],
    [
      'sequence.ceiling',
      ceilingOf(writes('router: event → delivery', onItem('WEBHOOK_DELIVERY_SEQUENCE#')), 'write'),
    ],
    ['endpoint.wru', n(unitsOn(deliveryOperations, endpointPartition))],
    ['endpoint.retryWru', n(unitsOn(retried, endpointPartition))],
    ['endpoint.ceiling', ceilingOf(unitsOn(deliveryOperations, endpointPartition), 'write')],
    ['endpoint.retryCeiling', ceilingOf(unitsOn(retried, endpointPartition), 'write')],
    ['endpoint.retryCeiling4', ceilingOf(unitsOn(retried, endpointPartition), 'write', 4)],
    ['endpoint.retryCeiling16', ceilingOf(unitsOn(retried, endpointPartition), 'write', 16)],
    ['due.ceiling', ceilingOf(unitsOn(deliveryOperations, dueShards), 'write', 16)],
    ['reads.ceiling', ceilingOf(unitsOn(deliveryOperations, merchantPartition, 'read'), 'read')],
    ['dispatcher.concurrency', n(dispatcherQueue.maxConcurrency)],
    ['dispatcher.batch', n(dispatcherQueue.batchSize)],
    ['dispatcher.inFlight', n(inFlight)],
    ['dispatcher.rate', perSecond(Math.floor(inFlight / (input('dispatcherMs') / 1000)))],
    ['production.throttle', perSecond(production.rateLimit)],
    ['production.burst', n(production.burstLimit)],
    ['question.card', n(questionRate * writesOn(['createSandboxPayment'], merchantPartition))],
    ['question.payLink8', n((questionRate * writesOn(['payInvoice'], movesWithShards)) / 8)],
    ['question.card8', n((questionRate * writesOn(['createSandboxPayment'], movesWithShards)) / 8)],
    ['question.refund8', n((questionRate * writesOn(['refundSandboxPayment'], movesWithShards)) / 8)],
    [
      'question.paid8',
      n((questionRate * writes('payInvoice', onIndex('GSI1', 'MERCHANT#<mer>#INVOICES#paid'))) / 8),
    ],
    ['question.all16', n((questionRate * payments.reduce((sum, units) => sum + units, 0)) / 16)],
    ['question.endpoint', n(questionRate * unitsOn(deliveryOperations, endpointPartition))],
    ['question.endpointRetry', n(questionRate * unitsOn(retried, endpointPartition))],
    ['question.endpoint4', n((questionRate * unitsOn(retried, endpointPartition)) / 4)],
    ['list.rru', n(listRead)],
    ['list.rru8', n(8 * listRead)],
    ['list.dollars8', money(8 * listRead * input('readRequestUnit'))],
    ['sizing.card', shardsFor(writesOn(['createSandboxPayment'], merchantPartition))],
    ['sizing.payLink', shardsFor(writesOn(['payInvoice'], merchantPartition))],
    ['sizing.endpoint', shardsFor(unitsOn(retried, endpointPartition))],
  ];
  return new Map(figures);
}

/** Ways to put a gateway in front of the merchant routes; the first is today's. */
const gatewayOptions: GatewayOption[] = [
  {
    name: 'REST API, web ACL on the stage (today)',
    gateway: 'restApiRequest',
    webAcl: true,
    traced: true,
    cloudFront: false,
  },
  {
    name: 'REST API, no web ACL (for scale: the pay routes need one)',
    gateway: 'restApiRequest',
    webAcl: false,
    traced: true,
    cloudFront: false,
  },
  { name: 'HTTP API', gateway: 'httpApiRequest', webAcl: false, traced: false, cloudFront: false },
  {
    name: 'CloudFront with a web ACL, then an HTTP API',
    gateway: 'httpApiRequest',
    webAcl: true,
    traced: false,
    cloudFront: true,
  },
];
/** The lines of the cost table the gateway decision prices: a read of one invoice and an issue. */
const decisionLines = { read: 0, write: 4 } as const;
/** Merchant calls a month at which the decision states what each option saves. */
const decisionMonthlyMillions = 300;

function decisionLine(index: number, inputs: Record<string, number>) {
  const line = costLines[index] as CostLine;
  return { line, cost: lineCost(line, measured, sent, inputs, pricedStage) };
}

function renderDecisionTable(inputs: Record<string, number>): string {
  const read = decisionLine(decisionLines.read, inputs);
  const write = decisionLine(decisionLines.write, inputs);
  return renderGatewayTable(gatewayOptions, read, write, inputs, pricedStage);
}

/** Every figure the gateway decision's prose states, by the name its marker carries there. */
function decisionFigures(inputs: Record<string, number>): Map<string, string> {
  const input = inputOf(inputs);
  const totals = (index: number) => {
    const { line, cost } = decisionLine(index, inputs);
    return gatewayOptions.map((option) => gatewayOptionCost(option, line, cost, inputs, pricedStage).total);
  };
  const [today = 0, , http = 0, cloudFront = 0] = totals(decisionLines.read);
  const [todayWrite = 0, , httpWrite = 0] = totals(decisionLines.write);
  const rate = (value: number) => `$${value}`;
  const rules = webAclRules(
    'production',
    stageSettings.production.apiKeyCeiling,
    ruleMetricNames('probe'),
  ).length;
  const figures: [string, string][] = [
    ['price.rest', money(input('restApiRequest'))],
    ['price.http', money(input('httpApiRequest'))],
    ['price.waf', money(input('wafRequest'))],
    ['price.cloudFront', money(input('cloudFrontRequest'))],
    ['price.dataOut', rate(input('dataTransferOutGb'))],
    ['price.cloudFrontDataOut', rate(input('cloudFrontDataOutGb'))],
    ['today.read', money(today)],
    ['http.read', money(http)],
    ['http.ratio', times(http, today)],
    ['cloudFront.read', money(cloudFront)],
    ['cloudFront.ratio', times(cloudFront, today)],
    ['http.saving', money(today - http)],
    ['cloudFront.saving', money(today - cloudFront)],
    ['monthly.millions', figureNumber(decisionMonthlyMillions)],
    ['http.savingMonthly', money(decisionMonthlyMillions * (today - http))],
    ['cloudFront.savingMonthly', money(decisionMonthlyMillions * (today - cloudFront))],
    ['http.writeRatio', times(httpWrite, todayWrite)],
    ['webAcl.month', money(input('wafWebAclMonth') + rules * input('wafRuleMonth'))],
  ];
  return new Map(figures);
}

describe('performance models (docs/performance.md)', () => {
  it('measures every operation the doc lists', () => {
    expect([...measured.keys()].sort()).toEqual([...operationOrder].sort());
  });

  it('states the units each operation consumes, per partition, as measured', async () => {
    const doc = await readFile(docPath, 'utf8');
    const table = renderUnitsTable(
      operationOrder.map((operation) => measured.get(operation) as OperationUnits),
    );
    await checkOrUpdate(doc, 'units', table);
  });

  it(`keeps every write within ${floorBudget}× of its floor, but those named with why`, () => {
    const ratios = operationOrder.flatMap((operation) => {
      const { units } = measured.get(operation) as OperationUnits;
      const floor = floorWrite(units);
      return floor === 0 ? [] : [{ operation, ratio: totalWrite(units) / floor }];
    });
    expect(ratios.length).toBeGreaterThan(10);
    for (const { operation, ratio } of ratios) {
      const reason = overFloor[operation];
      if (reason === undefined) expect(ratio, operation).toBeLessThanOrEqual(floorBudget);
      else expect(ratio, `${operation}: ${reason}`).toBeGreaterThan(floorBudget);
    }
    for (const named of Object.keys(overFloor)) expect(operationOrder).toContain(named);
  });

  it('states each hot key’s ceiling from the measured units', async () => {
    const doc = await readFile(docPath, 'utf8');
    await checkOrUpdate(doc, 'ceilings', renderCeilingsTable(hotKeys, measured));
  });

  it('prices each route class and a delivery from the measured units, the doc’s unit prices and production’s sampling', async () => {
    const doc = await readFile(docPath, 'utf8');
    await checkOrUpdate(
      doc,
      'costs',
      renderCostTable(costLines, measured, sent, readModelInputs(doc), pricedStage),
    );
  });

  it('prices each stage’s web ACL, its rules and its X-Ray reservoir by the month, from the stack and the stage files', async () => {
    const doc = await readFile(docPath, 'utf8');
    const stages = Object.values(Stage).map((stage) => ({
      stage,
      webAclRules: webAclRules(stage, stageSettings[stage].apiKeyCeiling, ruleMetricNames('probe')).length,
      traceSampling: committedStageConfig(stage).traceSampling,
    }));
    await checkOrUpdate(doc, 'monthly', renderMonthlyTable(stages, readModelInputs(doc)));
  });

  it('states every figure of the model’s prose as the model computes it', async () => {
    const doc = await readFile(docPath, 'utf8');
    const figures = modelFigures(readModelInputs(doc));
    if (update) {
      await writeFile(docPath, writeFigures(await readFile(docPath, 'utf8'), figures));
      return;
    }
    expect(staleFigures(doc, figures), `docs/performance.md is stale: ${staleHint}`).toEqual([]);
  });

  it('marks every figure it computes somewhere in the model’s prose', async () => {
    const doc = await readFile(docPath, 'utf8');
    expect(unmarkedFigures(doc, modelFigures(readModelInputs(doc)))).toEqual([]);
  });

  it('prices the merchant routes behind each gateway option in the decision record, from the same model', async () => {
    const inputs = readModelInputs(await readFile(docPath, 'utf8'));
    await checkOrUpdate(
      await readFile(decisionPath, 'utf8'),
      'gateways',
      renderDecisionTable(inputs),
      decisionPath,
    );
    const figures = decisionFigures(inputs);
    if (update) {
      await writeFile(decisionPath, writeFigures(await readFile(decisionPath, 'utf8'), figures));
      return;
    }
    const decision = await readFile(decisionPath, 'utf8');
    expect(staleFigures(decision, figures), `${decisionPath.pathname} is stale: ${staleHint}`).toEqual([]);
    expect(unmarkedFigures(decision, figures)).toEqual([]);
    expect(handTypedFigures(decision, '# ')).toEqual([]);
  });

  it('types no figure of units, dollars or rate by hand in the model’s prose', async () => {
    const doc = await readFile(docPath, 'utf8');
    expect(handTypedFigures(doc, '## Cost and capacity models')).toEqual([]);
  });

  it('finds no room for 500 payments/s of one merchant, nor 500 deliveries/s to one endpoint, on one shard', () => {
    const endpointPartition = (unit: PartitionUnits) =>
      unit.index === 'table' && unit.partition === 'DELIVERIES#<whk>';
    // At the ceiling is no room: the merchant's other writes share the partition.
    expect(500 * writesOn(['createSandboxPayment'], merchantPartition)).toBeGreaterThanOrEqual(1000);
    expect(500 * writesOn(['payInvoice'], merchantPartition)).toBeGreaterThan(1000);
    expect(500 * writesOn(deliveryOperations, endpointPartition)).toBeGreaterThan(1000);
  });

  it('finds room for 500 payments/s of one merchant, card or pay link, and 500 refunds/s, over 8 write shards', () => {
    // Only the counters stay behind in shard 0, and no payment or refund writes them.
    for (const operation of paymentOperations) {
      expect(writesOn([operation], movesWithShards)).toBe(writesOn([operation], merchantPartition));
      expect((500 * writesOn([operation], movesWithShards)) / 8).toBeLessThanOrEqual(1000);
    }
    // All three at 500/s at once fit the 16 shards a merchant may have.
    expect((500 * writesOn(paymentOperations, movesWithShards)) / 16).toBeLessThanOrEqual(1000);
    const paidList = (unit: PartitionUnits) =>
      unit.index === 'GSI1' && unit.partition === 'MERCHANT#<mer>#INVOICES#paid';
    expect((500 * writesOn(['payInvoice'], paidList)) / 8).toBeLessThanOrEqual(1000);
  });

  it('finds room for 500 deliveries/s to one endpoint, each retried once, over 4 delivery shards', () => {
    const perDelivery = [...deliveryOperations, 'dispatcher: failed attempt']
      .flatMap((operation) => measured.get(operation)?.units ?? [])
      .filter((unit) => unit.index === 'table' && unit.partition === 'DELIVERIES#<whk>')
      .reduce((total, unit) => total + unit.write, 0);
    expect((500 * perDelivery) / 4).toBeLessThanOrEqual(1000);
    // A delivery stays under 1 KB when leased (no stored nulls): 1 WRU a write after its creation's 2.
    expect(perDelivery).toBe(6);
  });
});

const staleHint = 'UPDATE_PERFORMANCE_MODELS=1 npx vitest run test/e2e/capacity-model.test.ts';

/** Compares a generated block of the doc at `path` with `content`, or rewrites it when asked to. */
async function checkOrUpdate(doc: string, block: string, content: string, path = docPath): Promise<void> {
  if (update) {
    const current = await readFile(path, 'utf8');
    await writeFile(path, replaceGeneratedBlock(current, block, content));
    return;
  }
  expect(generatedBlock(doc, block), `${path.pathname} is stale: ${staleHint}`).toBe(content);
}
