import fc from 'fast-check';
import { afterAll, describe, expect } from 'vitest';
import { document, documentSchemaAt, responseProblems, validatorOf } from '../support/document-schemas';
import { e2eTest, webhookSettings } from '../support/e2e-test';
import { issueInvoice } from '../support/invoice-requests';
import { arbitraryOf, type JsonSchema } from '../support/json-schema-arbitrary';
import { apiClient, newKey, type TestRuntime } from '../support/local-runtime';
import { assertProperty } from '../support/property';
import {
  balanceTransaction,
  checkoutSession,
  declinedPaymentIntent,
  disputeCreatedEvent,
  paymentIntent,
  paymentIntentFailedEvent,
  paymentIntentSucceededEvent,
  payoutCreatedEvent,
  refundEvent,
  stripeDispute,
  stripeError,
  stripeList,
  stripePayout,
  stripeRefund,
  testStripeSecretKey,
  testStripeWebhookSecret,
} from '../support/stripe-fixtures';
import { deliverStripeEvent, linkActiveStripeAccount, stripeEventId } from '../support/stripe-merchants';
import { type StripeRecordingServer, startStripeRecordingServer } from '../support/stripe-recording-server';
import { expectVerifiedDelivery } from '../support/webhook-checks';

// The recording server starts before the runtime, which reads its URL from the settings.
const stripe: StripeRecordingServer = await startStripeRecordingServer();

const test = e2eTest({
  ...webhookSettings,
  STAGE: 'production',
  STRIPE_SECRET_KEY: testStripeSecretKey,
  STRIPE_WEBHOOK_SECRET: testStripeWebhookSecret,
  STRIPE_API_BASE_URL: stripe.baseUrl,
  // Every request here comes from this one address, as Stripe's come from a few.
  PUBLIC_RATE_LIMIT_PER_MINUTE: 10_000,
});
afterAll(() => stripe.close());

const accountId = 'acct_1PaysInvoices';
const nowSeconds = () => Math.floor(Date.now() / 1000);
const eventId = stripeEventId;
const deliver = (t: TestRuntime, body: unknown) => deliverStripeEvent(t.runtime.baseUrl, body);
const payer = (t: TestRuntime) => apiClient(t.runtime.baseUrl, 'unused');

let linked: Promise<void> | undefined;
/** Links the runtime merchant's Stripe account once, active once Stripe says so. */
const linkActiveAccount = (t: TestRuntime) => {
  linked ??= linkActiveStripeAccount(t.runtime, t, stripe, accountId);
  return linked;
};

/** The pay page's request for a Checkout Session of all that remains of `invoice`, under a fresh key. */
function checkoutRequest(
  invoice: { invoiceUrlSlug: string; amountRemaining: { amount: number } },
  paymentMethodType: 'card' | 'bank_account' = 'card',
) {
  return {
    authorization: null,
    body: { slug: invoice.invoiceUrlSlug, amount: invoice.amountRemaining.amount, paymentMethodType },
    idempotencyKey: newKey(),
  };
}

/**
 * Pays all that remains of `invoice` as Stripe's `payment_intent.succeeded` of `paymentIntentId`
 * says, and answers the payment's id, as the merchant's list shows it.
 */
async function paidThroughStripe(
  t: TestRuntime,
  invoice: { invoiceId: string; amountRemaining: { amount: number } },
  paymentIntentId: string,
  paymentMethodType: 'card' | 'bank_account' = 'card',
): Promise<string> {
  const metadata = { merchantId: t.merchantId, invoiceId: invoice.invoiceId, paymentMethodType };
  const amount = invoice.amountRemaining.amount;
  const event = paymentIntentSucceededEvent(
    eventId(),
    accountId,
    paymentIntent(paymentIntentId, metadata, { amount }),
    nowSeconds(),
  );
  expect((await deliver(t, event)).body.outcome).toBe('applied');
  const listed = await t.api('GET', '/payments', { query: { merchantId: t.merchantId } });
  return listed.body.items.find((payment: any) => payment.processorReferenceId === paymentIntentId).paymentId;
}

describe('paying an invoice through Stripe (production)', () => {
  test('answers 409, calling no Stripe, while the merchant has no active account', async ({ t, refs }) => {
    const invoice = await issueInvoice(t.api, t.merchantId, refs);
    const result = await payer(t)('POST', '/pay/checkout-sessions', checkoutRequest(invoice));
    expect(result.status).toBe(409);
    expect(result.body.error).toMatchObject({
      code: 'invalid_state',
      message: expect.stringMatching(/cannot take/),
    });
    expect(stripe.requestsTo('POST', '/v1/checkout/sessions')).toEqual([]);
    // The card form's route is the sandbox's only.
    const card = await payer(t)('POST', '/pay/payments', {
      authorization: null,
      body: {},
      idempotencyKey: newKey(),
    });
    expect(card.status).toBe(404);
  });

  test('opens a Checkout Session on the connected account with the exact parameters', async ({ t, refs }) => {
    await linkActiveAccount(t);
    const invoice = await issueInvoice(t.api, t.merchantId, refs);
    const expiresAt = nowSeconds() + 1800;
    stripe.answer('POST', '/v1/checkout/sessions', {
      body: checkoutSession('cs_test_1', 'https://checkout.stripe.com/c/pay/cs_test_1', expiresAt),
    });
    const request = checkoutRequest(invoice);
    const opened = await payer(t)('POST', '/pay/checkout-sessions', request);
    expect(opened).toMatchObject({
      status: 201,
      body: {
        checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_test_1',
        expiresAt: new Date(expiresAt * 1000).toISOString(),
      },
    });
    const [sent] = stripe.requestsTo('POST', '/v1/checkout/sessions');
    expect(sent?.headers['stripe-account']).toBe(accountId);
    expect(sent?.headers['idempotency-key']).toMatch(/^merchant-payments-[0-9a-f]+-checkout$/);
    const pageUrl = `${t.runtime.baseUrl}/pay`;
    expect(sent?.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': String(invoice.amountRemaining.amount),
      'allowed_payment_method_types[0]': 'card',
      'metadata[invoiceId]': invoice.invoiceId,
      'metadata[merchantId]': t.merchantId,
      'payment_intent_data[metadata][invoiceId]': invoice.invoiceId,
      'payment_intent_data[metadata][paymentMethodType]': 'card',
      success_url: `${pageUrl}?checkout=complete#${invoice.invoiceUrlSlug}`,
      cancel_url: `${pageUrl}#${invoice.invoiceUrlSlug}`,
    });
    expect(Object.keys(sent?.form ?? {}).some((name) => /number|cvc|account_number/.test(name))).toBe(false);
    // The same key answers the same session, and Stripe is asked with the same key.
    const again = await payer(t)('POST', '/pay/checkout-sessions', request);
    expect(again.body).toEqual(opened.body);
    // A bank account is Stripe's ACH Direct Debit for a USD invoice.
    await payer(t)('POST', '/pay/checkout-sessions', checkoutRequest(invoice, 'bank_account'));
    expect(
      stripe.requestsTo('POST', '/v1/checkout/sessions').at(-1)?.form['allowed_payment_method_types[0]'],
    ).toBe('us_bank_account');
  });

  test('a successful payment pays the invoice and delivers InvoicePaid and PaymentCreated; a failed one PaymentDeclined', async ({
    t,
    refs,
    receiver,
    endpoints,
  }) => {
    // Only this test's endpoint: the file's receiver is shared.
    await endpoints.deleteAll();
    const endpoint = await endpoints.subscribe(receiver.url(), [
      'payments.PaymentCreated',
      'payments.PaymentDeclined',
      'invoices.InvoicePaid',
    ]);
    await linkActiveAccount(t);
    receiver.clear();
    const invoice = await issueInvoice(t.api, t.merchantId, refs);
    const metadata = { merchantId: t.merchantId, invoiceId: invoice.invoiceId };
    const amount = invoice.amountRemaining.amount;
    const declined = paymentIntentFailedEvent(
      eventId(),
      accountId,
      {
        ...declinedPaymentIntent('pi_1Paid', metadata, {
          code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
        }),
        amount,
      },
      nowSeconds() - 10,
    );
    const succeeded = paymentIntentSucceededEvent(
      eventId(),
      accountId,
      paymentIntent('pi_1Paid', metadata, { amount }),
      nowSeconds(),
    );
    // Out of order, each twice.
    for (const event of [succeeded, declined, succeeded, declined]) {
      expect((await deliver(t, event)).status).toBe(200);
    }
    const paid = await t.api('GET', `/invoices/${invoice.invoiceId}`, {
      query: { merchantId: t.merchantId },
    });
    expect(paid.body).toMatchObject({ status: 'paid', amountRemaining: { amount: 0 } });
    const listed = await t.api('GET', '/payments', { query: { merchantId: t.merchantId } });
    const ours = listed.body.items.filter((payment: any) => payment.processorReferenceId === 'pi_1Paid');
    expect(ours.map((payment: any) => [payment.status, payment.processor, payment.amount]).sort()).toEqual([
      ['completed', 'stripe', amount],
      ['declined', 'stripe', amount],
    ]);
    const requests = await receiver.waitFor(3, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const bodies = receiver.requests.map((request) => expectVerifiedDelivery(request, endpoint.secret));
    expect(bodies.map((body) => body.type).sort()).toEqual([
      'invoices.InvoicePaid',
      'payments.PaymentCreated',
      'payments.PaymentDeclined',
    ]);
    expect(requests.length).toBeGreaterThanOrEqual(3);
    const declinedBody = bodies.find((body) => body.type === 'payments.PaymentDeclined');
    expect(declinedBody?.data).toMatchObject({
      processor: 'stripe',
      declineCode: 'insufficient_funds',
      declineMessage: 'Your card has insufficient funds.',
    });
    const created = bodies.find((body) => body.type === 'payments.PaymentCreated');
    expect(created?.data).toMatchObject({ processor: 'stripe', amount, paymentInstrumentId: 'pm_1Paid' });
  });

  test('records, and changes nothing for, a second success of one PaymentIntent and one of an invoice it does not hold', async ({
    t,
    refs,
  }) => {
    await linkActiveAccount(t);
    const invoice = await issueInvoice(t.api, t.merchantId, refs);
    const metadata = { merchantId: t.merchantId, invoiceId: invoice.invoiceId };
    const intent = paymentIntent('pi_1Twice', metadata, { amount: invoice.amountRemaining.amount });
    const first = paymentIntentSucceededEvent(eventId(), accountId, intent, nowSeconds());
    expect((await deliver(t, first)).body.outcome).toBe('applied');
    const before = (await t.scanTable()).filter((item) => item.entityType === 'Payment');
    const second = paymentIntentSucceededEvent(eventId(), accountId, intent, nowSeconds());
    expect((await deliver(t, second)).body.outcome).toBe('duplicate');
    const stranger = paymentIntentSucceededEvent(
      eventId(),
      accountId,
      paymentIntent('pi_1Stranger', {
        merchantId: t.merchantId,
        invoiceId: 'inv_01h455vb4pex5vsknk084sn02q',
      }),
      nowSeconds(),
    );
    expect((await deliver(t, stranger)).body.outcome).toBe('unknown_object');
    const unmarked = paymentIntentSucceededEvent(
      eventId(),
      accountId,
      paymentIntent('pi_1Unmarked', metadata, { metadata: {} }),
      nowSeconds(),
    );
    expect((await deliver(t, unmarked)).body.outcome).toBe('unknown_object');
    const elsewhere = paymentIntentSucceededEvent(eventId(), 'acct_1Elsewhere', intent, nowSeconds());
    expect((await deliver(t, elsewhere)).body.outcome).toBe('unknown_account');
    expect((await t.scanTable()).filter((item) => item.entityType === 'Payment')).toEqual(before);
  });

  test('answers every checkout body valid by its schema with a documented status and shape', async ({
    t,
  }) => {
    const path = '/pay/checkout-sessions';
    const operation = document.paths[path].post;
    const resolve = (ref: string): JsonSchema => documentSchemaAt(ref);
    const bodies = arbitraryOf(operation.requestBody.content['application/json'].schema, {
      resolve,
      validatorOf,
    });
    await assertProperty(
      fc.asyncProperty(bodies, async (body) => {
        const result = await payer(t)('POST', path, { authorization: null, body, idempotencyKey: newKey() });
        // No generated slug names an invoice: the neutral 404.
        expect({
          status: result.status,
          problems: responseProblems('POST', path, result.status, result.body),
        }).toEqual({ status: 404, problems: [] });
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  test('a returned bank debit delivers PaymentReturned, a payout PayoutCreated with gross, fee and net', async ({
    t,
    refs,
    receiver,
    endpoints,
  }) => {
    await linkActiveAccount(t);
    // Only this test's endpoint: the file's receiver is shared.
    await endpoints.deleteAll();
    const endpoint = await endpoints.subscribe(receiver.url(), [
      'payments.PaymentReturned',
      'payouts.PayoutCreated',
    ]);
    receiver.clear();
    const invoice = await issueInvoice(t.api, t.merchantId, refs);
    const amount = invoice.amountRemaining.amount;
    await paidThroughStripe(t, invoice, 'pi_1Debit', 'bank_account');
    const returned = disputeCreatedEvent(
      eventId(),
      accountId,
      stripeDispute('du_1Returned', 'pi_1Debit', amount),
      nowSeconds(),
    );
    const payout = payoutCreatedEvent(
      eventId(),
      accountId,
      stripePayout('po_1Weekly', amount - 110),
      nowSeconds(),
    );
    stripe.answer('GET', '/v1/balance_transactions', {
      body: stripeList('/v1/balance_transactions', [
        balanceTransaction('txn_1Charge', 'charge', amount, 110),
        balanceTransaction('txn_1Payout', 'payout', -(amount - 110), 0),
      ]),
    });
    // Each twice, the payout first.
    for (const event of [payout, returned, payout, returned])
      expect((await deliver(t, event)).status).toBe(200);
    const [listed] = stripe.requestsTo('GET', '/v1/balance_transactions?payout=po_1Weekly&limit=100');
    expect(listed?.headers['stripe-account']).toBe(accountId);
    await receiver.waitFor(2, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const bodies = receiver.requests.map((request) => expectVerifiedDelivery(request, endpoint.secret));
    expect(bodies.map((body) => body.type).sort()).toEqual([
      'payments.PaymentReturned',
      'payouts.PayoutCreated',
    ]);
    const paymentId = bodies.find((body) => body.type === 'payments.PaymentReturned')?.data.paymentId;
    expect(bodies.find((body) => body.type === 'payments.PaymentReturned')?.data).toMatchObject({
      returnedAmount: amount,
      processorReferenceId: 'du_1Returned',
    });
    expect(bodies.find((body) => body.type === 'payouts.PayoutCreated')?.data).toMatchObject({
      processor: 'stripe',
      grossAmount: amount,
      feeAmount: 110,
      netAmount: amount - 110,
      currency: 'USD',
      payoutAccountId: 'ba_1RecordingServer',
    });
    const payment = await t.api('GET', `/payments/${paymentId}`, { query: { merchantId: t.merchantId } });
    expect(payment.body).toMatchObject({
      status: 'returned',
      processor: 'stripe',
      processorReferenceId: 'pi_1Debit',
    });
    // A card's dispute is no return: recorded only.
    await paidThroughStripe(t, await issueInvoice(t.api, t.merchantId, refs), 'pi_1Card');
    const disputed = disputeCreatedEvent(
      eventId(),
      accountId,
      stripeDispute('du_1Card', 'pi_1Card', amount),
      nowSeconds(),
    );
    expect((await deliver(t, disputed)).body.outcome).toBe('recorded');
  });

  test('a merchant refund is pending until Stripe confirms it, then delivers PaymentRefunded; a failed one frees its amount', async ({
    t,
    refs,
    receiver,
    endpoints,
  }) => {
    await linkActiveAccount(t);
    await endpoints.deleteAll();
    const endpoint = await endpoints.subscribe(receiver.url(), ['payments.PaymentRefunded']);
    receiver.clear();
    const invoice = await issueInvoice(t.api, t.merchantId, refs);
    const amount = invoice.amountRemaining.amount;
    const paymentId = await paidThroughStripe(t, invoice, 'pi_1Refunded');

    stripe.answer('POST', '/v1/refunds', { body: stripeRefund('re_1Asked', 'pi_1Refunded', 300, 'pending') });
    const key = newKey();
    const asked = await t.api('POST', `/payments/${paymentId}/refunds`, {
      body: { merchantId: t.merchantId, amount: 300 },
      idempotencyKey: key,
    });
    expect(asked).toMatchObject({
      status: 201,
      body: { status: 'pending', amount: 300, processorReferenceId: 're_1Asked', paymentStatus: 'completed' },
    });
    const [sent] = stripe.requestsTo('POST', '/v1/refunds');
    expect(sent?.headers['stripe-account']).toBe(accountId);
    expect(sent?.headers['idempotency-key']).toMatch(/^merchant-payments-[0-9a-f]+-refund$/);
    expect(sent?.form).toMatchObject({
      payment_intent: 'pi_1Refunded',
      amount: '300',
      'metadata[refundId]': asked.body.id,
      'metadata[paymentId]': paymentId,
    });
    // What is pending is not left to refund.
    const tooMuch = await t.api('POST', `/payments/${paymentId}/refunds`, {
      body: { merchantId: t.merchantId, amount: amount - 299 },
      idempotencyKey: newKey(),
    });
    expect(tooMuch.status).toBe(409);
    const refundPath = `/payments/${paymentId}/refunds/${asked.body.id}`;
    expect((await t.api('GET', refundPath, { query: { merchantId: t.merchantId } })).body.status).toBe(
      'pending',
    );

    const confirmed = refundEvent(
      eventId(),
      accountId,
      'refund.updated',
      stripeRefund('re_1Asked', 'pi_1Refunded', 300, 'succeeded', { refundId: asked.body.id }),
      nowSeconds(),
    );
    for (const event of [confirmed, confirmed]) expect((await deliver(t, event)).status).toBe(200);
    expect((await t.api('GET', refundPath, { query: { merchantId: t.merchantId } })).body).toMatchObject({
      status: 'succeeded',
      paymentStatus: 'completed',
    });
    const [delivered] = await receiver.waitFor(1, 15_000);
    expect(expectVerifiedDelivery(delivered as never, endpoint.secret)).toMatchObject({
      type: 'payments.PaymentRefunded',
      data: { refundId: asked.body.id, paymentId, refundedAmount: 300, processorReferenceId: 're_1Asked' },
    });

    // A refund Stripe fails: its amount is refundable again, and nothing is announced.
    stripe.answer('POST', '/v1/refunds', { body: stripeRefund('re_1Fails', 'pi_1Refunded', 200, 'pending') });
    const failing = await t.api('POST', `/payments/${paymentId}/refunds`, {
      body: { merchantId: t.merchantId, amount: 200 },
      idempotencyKey: newKey(),
    });
    const failed = refundEvent(
      eventId(),
      accountId,
      'refund.failed',
      stripeRefund('re_1Fails', 'pi_1Refunded', 200, 'failed', { refundId: failing.body.id }),
      nowSeconds(),
    );
    expect((await deliver(t, failed)).body.outcome).toBe('applied');
    expect(
      (
        await t.api('GET', `/payments/${paymentId}/refunds/${failing.body.id}`, {
          query: { merchantId: t.merchantId },
        })
      ).body.status,
    ).toBe('failed');

    // A refund made on Stripe's dashboard, for the rest: applied once it succeeds, the payment refunded.
    const rest = amount - 300;
    const dashboard = stripeRefund('re_1Dashboard', 'pi_1Refunded', rest, 'succeeded');
    for (const type of ['refund.created', 'refund.updated'] as const) {
      expect(
        (await deliver(t, refundEvent(eventId(), accountId, type, dashboard, nowSeconds()))).status,
      ).toBe(200);
    }
    const payment = await t.api('GET', `/payments/${paymentId}`, { query: { merchantId: t.merchantId } });
    expect(payment.body).toMatchObject({ status: 'refunded', amountRefunded: amount });
    await receiver.waitFor(2, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.requests).toHaveLength(2);
  });

  test('answers 503 "try again", recording nothing, while Stripe fails; the same key then goes through', async ({
    t,
    refs,
  }) => {
    await linkActiveAccount(t);
    const invoice = await issueInvoice(t.api, t.merchantId, refs);
    const failure = { status: 500, body: stripeError('api_error', 'Something went wrong on Stripe.') };
    stripe.answer('POST', '/v1/checkout/sessions', failure, failure, {
      body: checkoutSession(
        'cs_test_later',
        'https://checkout.stripe.com/c/pay/cs_test_later',
        nowSeconds() + 1800,
      ),
    });
    const request = checkoutRequest(invoice);
    // What a payment or refund writes; the invoice's emails go on meanwhile.
    const ledger = async () =>
      (await t.scanTable()).filter((item) =>
        ['Invoice', 'Payment', 'Refund', 'IdempotencyRecord', 'ProcessorObject'].includes(
          String(item.entityType),
        ),
      );
    const before = await ledger();
    const asked = stripe.requestsTo('POST', '/v1/checkout/sessions').length;
    const refused = await payer(t)('POST', '/pay/checkout-sessions', request);
    expect(refused).toMatchObject({
      status: 503,
      body: { error: { code: 'service_unavailable', message: expect.stringMatching(/Try again/) } },
    });
    expect(refused.headers.get('retry-after')).toBe('5');
    // The SDK's own one retry, then nothing written.
    expect(stripe.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(asked + 2);
    expect(await ledger()).toEqual(before);
    expect((await payer(t)('POST', '/pay/checkout-sessions', request)).status).toBe(201);

    const paymentId = await paidThroughStripe(t, invoice, 'pi_1Faults');
    stripe.answer(
      'POST',
      '/v1/refunds',
      { status: 429, body: stripeError('rate_limit_error', 'Too many requests.') },
      {
        body: stripeRefund('re_1Later', 'pi_1Faults', 100, 'pending'),
      },
    );
    const refund = { body: { merchantId: t.merchantId, amount: 100 }, idempotencyKey: newKey() };
    const beforeRefund = await ledger();
    expect((await t.api('POST', `/payments/${paymentId}/refunds`, refund)).status).toBe(503);
    expect(await ledger()).toEqual(beforeRefund);
    expect((await t.api('POST', `/payments/${paymentId}/refunds`, refund)).body).toMatchObject({
      status: 'pending',
      amount: 100,
    });
  });
});
