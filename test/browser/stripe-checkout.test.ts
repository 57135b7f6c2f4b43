import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { launchChromium } from '../support/chromium';
import { expectOk, type InvoiceRefs, issueTaxedInvoice } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import {
  checkoutSession,
  paymentIntent,
  paymentIntentSucceededEvent,
  testStripeSecretKey,
  testStripeWebhookSecret,
} from '../support/stripe-fixtures';
import { deliverStripeEvent, linkActiveStripeAccount, stripeEventId } from '../support/stripe-merchants';
import { type StripeRecordingServer, startStripeRecordingServer } from '../support/stripe-recording-server';

const accountId = 'acct_1BrowserPays';
const checkoutUrl = 'https://checkout.stripe.com/c/pay/cs_test_browser';

let stripe: StripeRecordingServer;
let t: TestRuntime;
let browser: Browser;
let refs: InvoiceRefs;

beforeAll(async () => {
  stripe = await startStripeRecordingServer();
  [browser, t] = await Promise.all([
    launchChromium(),
    startTestRuntime({
      STAGE: 'production',
      STRIPE_SECRET_KEY: testStripeSecretKey,
      STRIPE_WEBHOOK_SECRET: testStripeWebhookSecret,
      STRIPE_API_BASE_URL: stripe.baseUrl,
    }),
  ]);
  refs = await invoiceFixtures(t.api, t.merchantId);
  await linkActiveStripeAccount(t.runtime, t, stripe, accountId);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await stripe?.close();
});

describe("the production pay page, on Stripe's Checkout", () => {
  it('takes no card number, sends the payer to the Checkout URL, and shows the invoice paid on return', async () => {
    const invoice = await issueTaxedInvoice(t.api, t.merchantId, refs);
    stripe.answer('POST', '/v1/checkout/sessions', {
      body: checkoutSession('cs_test_browser', checkoutUrl, Math.floor(Date.now() / 1000) + 1800),
    });
    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC' });
    onTestFinished(() => context.close());
    // No machine here reaches Stripe: its page is answered in the browser, and the visit recorded.
    const visits: string[] = [];
    await context.route('https://checkout.stripe.com/**', (route) => {
      visits.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Stripe Checkout</title>' });
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    const opened = await page.goto(`${t.runtime.baseUrl}/pay#${invoice.invoiceUrlSlug}`);
    expect(opened?.headers()['content-security-policy']).toMatch(/script-src 'sha256-[^']+'(;|$)/);
    const button = page.getByRole('button', { name: 'Continue to pay $27.50' });
    await button.waitFor();
    expect(await page.getByLabel('Card number').isVisible()).toBe(false);
    expect(await page.getByLabel('Account number').isVisible()).toBe(false);
    await expect.poll(() => page.locator('#checkout-note').isVisible()).toBe(true);
    await button.click();
    await page.waitForURL(checkoutUrl);
    expect(visits).toEqual([checkoutUrl]);
    expect(scripts).toEqual([]);
    const [sent] = stripe.requestsTo('POST', '/v1/checkout/sessions');
    expect(sent?.form['line_items[0][price_data][unit_amount]']).toBe('2750');

    // Stripe sends the payer back before its event arrives: the page waits for it.
    const back = `${t.runtime.baseUrl}/pay?checkout=complete#${invoice.invoiceUrlSlug}`;
    await page.goto(back);
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    const metadata = { merchantId: t.merchantId, invoiceId: invoice.invoiceId };
    const succeeded = paymentIntentSucceededEvent(
      stripeEventId(),
      accountId,
      paymentIntent('pi_1BrowserPaid', metadata, { amount: 2750 }),
      Math.floor(Date.now() / 1000),
    );
    expect((await deliverStripeEvent(t.runtime.baseUrl, succeeded)).body.outcome).toBe('applied');
    await page.getByRole('heading', { name: 'This invoice is paid' }).waitFor();
    const stored = expectOk(
      await t.api('GET', `/invoices/${invoice.invoiceId}`, { query: { merchantId: t.merchantId } }),
    );
    expect(stored.status).toBe('paid');
  });
});
