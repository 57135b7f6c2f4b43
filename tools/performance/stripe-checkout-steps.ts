import { expectOk, issueInvoice } from '../../test/support/invoice-requests';
import { invoiceFixtures } from '../../test/support/invoices';
import { apiClient, newKey, startTestRuntime, type TestRuntime } from '../../test/support/local-runtime';
import {
  checkoutSession,
  paymentIntent,
  paymentIntentSucceededEvent,
  stripeSignature,
  testStripeSecretKey,
  testStripeWebhookSecret,
} from '../../test/support/stripe-fixtures';
import { linkActiveStripeAccount, stripeEventId } from '../../test/support/stripe-merchants';
import {
  type StripeRecordingServer,
  startStripeRecordingServer,
} from '../../test/support/stripe-recording-server';
import { runningUntilStopped } from '../bench/running-until-stopped';
import { StripeSteps } from './capacity-model';
import type { MeasureContext } from './measure-context';
import { type MeasurementRecorder, stripeRequestBytes } from './measurement-recorder';

/** The connected account of the measured merchant, and the ids Stripe's answers carry. */
const StripeIds = {
  account: 'acct_1CapacityModel',
  session: 'cs_1CapacityModel',
  intent: 'pi_1CapacityModel',
} as const;

/**
 * Production's way of paying, on a runtime of its own (the sandbox has neither route): the payer's
 * Checkout Session, then Stripe's `payment_intent.succeeded` through the webhook, which pays the
 * invoice. Stripe is the recording server; what the route sends it is counted as sent.
 */
export async function measureStripeCheckout(
  recorder: MeasurementRecorder,
  context: Pick<MeasureContext, 'dynamodb' | 'onStop'>,
): Promise<void> {
  const stripe = await runningUntilStopped(context, startStripeRecordingServer());
  try {
    const production = await runningUntilStopped(
      context,
      startTestRuntime(
        {
          STAGE: 'production',
          STRIPE_SECRET_KEY: testStripeSecretKey,
          STRIPE_WEBHOOK_SECRET: testStripeWebhookSecret,
          STRIPE_API_BASE_URL: stripe.value.baseUrl,
        },
        { dynamodb: context.dynamodb },
      ),
    );
    try {
      await measureCheckoutSteps(recorder, production.value, stripe.value);
    } finally {
      await production.stop();
    }
  } finally {
    await stripe.stop();
  }
}

async function measureCheckoutSteps(
  recorder: MeasurementRecorder,
  production: TestRuntime,
  stripe: StripeRecordingServer,
): Promise<void> {
  const { api, merchantId } = production;
  const refs = await invoiceFixtures(api, merchantId);
  await linkActiveStripeAccount(production.runtime, production, stripe, StripeIds.account);
  const invoice = await issueInvoice(api, merchantId, refs);
  const amount = invoice.amountRemaining.amount;
  const now = Math.floor(Date.now() / 1000);
  stripe.answer('POST', '/v1/checkout/sessions', {
    body: checkoutSession(
      StripeIds.session,
      `https://checkout.stripe.com/c/pay/${StripeIds.session}`,
      now + 1800,
    ),
  });
  const client = recorder.recorded(apiClient(production.runtime.baseUrl, 'unused'));
  await recorder.measure(StripeSteps.session, async () =>
    expectOk(
      await client('POST', '/pay/checkout-sessions', {
        authorization: null,
        idempotencyKey: newKey(),
        body: { slug: invoice.invoiceUrlSlug, amount, paymentMethodType: 'card' },
      }),
    ),
  );
  const [toStripe, ...more] = stripe.requestsTo('POST', '/v1/checkout/sessions');
  if (toStripe === undefined || more.length > 0)
    throw new Error(
      `the route sent Stripe ${more.length + (toStripe === undefined ? 0 : 1)} sessions, not one`,
    );
  recorder.addSent(StripeSteps.session, stripeRequestBytes(toStripe));
  const intent = paymentIntent(StripeIds.intent, { merchantId, invoiceId: invoice.invoiceId }, { amount });
  const event = JSON.stringify(paymentIntentSucceededEvent(stripeEventId(), StripeIds.account, intent, now));
  const receipt = await recorder.measure(StripeSteps.succeeded, async () =>
    expectOk(
      await client('POST', '/processors/stripe/events', {
        authorization: null,
        rawBody: event,
        headers: { 'Stripe-Signature': stripeSignature(event) },
      }),
    ),
  );
  const paid = expectOk(await api('GET', `/invoices/${invoice.invoiceId}`, { query: { merchantId } }));
  if (receipt.outcome !== 'applied' || paid.status !== 'paid')
    throw new Error(`Stripe's event was ${receipt.outcome}, the invoice is ${paid.status}: not paid`);
}
