import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Browser, chromium, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { PayerDecline } from '../../functions/domain/pay-link-declines';
import { payPageContentSecurityPolicy } from '../../functions/pay/pay-page-document';
import { documentClient } from '../../functions/store/client';
import { keys } from '../../functions/store/keys';
import { chromiumExecutable, chromiumLaunchArgs, launchChromium } from '../support/chromium';
import { expectOk, type InvoiceRefs, invoiceAction, issueTaxedInvoice } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

const artifacts = fileURLToPath(new URL('../../test-results/', import.meta.url));
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Any expiry in the future passes the sandbox's check. */
const expYear = new Date().getUTCFullYear() + 3;

let t: TestRuntime;
let browser: Browser;
let merchantId: string;
let refs: InvoiceRefs;

beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  await Promise.all([
    launchChromium().then((launched) => {
      browser = launched;
    }),
    startTestRuntime().then((started) => {
      t = started;
    }),
  ]);
  merchantId = t.runtime.merchantId;
  refs = await invoiceFixtures(t.api, merchantId);
});

// Either may be missing when the setup failed part way.
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

/** An issued invoice: 2 × Green tea at 12.50 plus 2.50 sales tax = 27.50 USD. */
const issuedInvoice = (fields: Record<string, unknown> = {}) =>
  issueTaxedInvoice(t.api, merchantId, refs, fields);

async function invoiceStatus(invoiceId: string): Promise<string> {
  return expectOk(await t.api('GET', `/invoices/${invoiceId}`, { query: { merchantId } })).status;
}

interface PayPage {
  readonly page: Page;
  readonly requests: Request[];
  readonly consoleMessages: string[];
  readonly pageErrors: Error[];
  readonly headers: Record<string, string>;
}

/** Opens the pay link `{base_url}/pay#<slug>` in a fresh browser context, recording what the page does. */
async function openPayLink(slug: string, viewport = { width: 1024, height: 800 }): Promise<PayPage> {
  const context = await browser.newContext({ viewport, locale: 'en-US', timezoneId: 'UTC' });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const requests: Request[] = [];
  const consoleMessages: string[] = [];
  const pageErrors: Error[] = [];
  page.on('request', (request) => requests.push(request));
  page.on('console', (message) => consoleMessages.push(message.text()));
  page.on('pageerror', (error) => pageErrors.push(error));
  const response = await page.goto(`${t.runtime.baseUrl}/pay#${slug}`);
  expect(response?.status()).toBe(200);
  return { page, requests, consoleMessages, pageErrors, headers: response?.headers() ?? {} };
}

/** The rows of the invoice lines table, cell by cell, as the reader sees them. */
function lineRows(page: Page): Promise<string[][]> {
  return page
    .getByRole('table', { name: 'Invoice lines' })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...(row as any).cells].map((cell: any) => String(cell.innerText).trim())),
    );
}

/** The totals list as `{ term: amount }`. */
async function totals(page: Page): Promise<Record<string, string>> {
  const entries = await page
    .locator('#totals > div')
    .evaluateAll((items) =>
      items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent]),
    );
  return Object.fromEntries(entries);
}

async function payByCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry month').fill('12');
  await page.getByLabel('Expiry year').fill(String(expYear));
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
}

/** The slug travels only in JSON bodies: never in a URL, never in the console. */
function expectSlugKeptSecret(payPage: PayPage, slug: string): void {
  for (const request of payPage.requests) expect(request.url()).not.toContain(slug);
  for (const message of payPage.consoleMessages) expect(message).not.toContain(slug);
}

describe('pay page', () => {
  it('shows an issued invoice, takes a card payment and leaves the invoice paid', async () => {
    const invoice = await issuedInvoice();
    const slug: string = invoice.invoiceUrlSlug;
    const payPage = await openPayLink(slug);
    const { page } = payPage;
    expect(payPage.headers['content-security-policy']).toBe(payPageContentSecurityPolicy);
    expect(payPage.headers['referrer-policy']).toBe('no-referrer');

    await page.getByRole('heading', { name: `Invoice ${invoice.invoiceNumber}` }).waitFor();
    expect(await lineRows(page)).toEqual([
      ['Green tea', '2', '$12.50', '$25.00'],
      ['Sales tax', '1', '$2.50', '$2.50'],
    ]);
    expect(await totals(page)).toEqual({ Total: '$27.50', 'Amount due': '$27.50' });
    await page.getByRole('radio', { name: 'Card' }).check();
    await payByCard(page, '4242 4242 4242 4242');

    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    expect(await totals(page)).toEqual({ Total: '$27.50', Paid: '$27.50', 'Amount due': '$0.00' });
    expect(await page.getByRole('button', { name: /^Pay/ }).count()).toBe(0);
    await page.screenshot({ path: `${artifacts}pay-page-paid.png`, fullPage: true });
    expect(await invoiceStatus(invoice.invoiceId)).toBe('paid');

    const posts = payPage.requests.filter((request) => request.method() === 'POST');
    expect(posts.map((request) => new URL(request.url()).pathname)).toEqual([
      '/pay/invoice',
      '/pay/payments',
    ]);
    expect(posts[0]?.postDataJSON()).toEqual({ slug });
    expect(posts[1]?.headers()['idempotency-key']).toMatch(uuid);
    expect(posts[1]?.postDataJSON()).toEqual({
      slug,
      amount: 2750,
      paymentMethod: { type: 'card', number: '4242424242424242', expMonth: 12, expYear, cvc: '123' },
    });
    expectSlugKeptSecret(payPage, slug);
    expect(payPage.pageErrors).toEqual([]);
    // Chromium says on the console when the policy blocks an inline script or style.
    expect(payPage.consoleMessages.filter((message) => /Content Security Policy/i.test(message))).toEqual([]);
  });

  it('shows a declined card and keeps the form usable and the invoice issued', async () => {
    const invoice = await issuedInvoice();
    const payPage = await openPayLink(invoice.invoiceUrlSlug);
    const { page } = payPage;
    await page.getByRole('heading', { name: `Invoice ${invoice.invoiceNumber}` }).waitFor();
    await payByCard(page, '4000000000000002');

    await page.getByRole('alert').filter({ hasText: PayerDecline.message }).waitFor();
    expect(await page.getByRole('button', { name: 'Pay $27.50' }).isEnabled()).toBe(true);
    expect(await page.getByLabel('Card number').inputValue()).toBe('4000000000000002');
    expect(await page.getByRole('heading', { name: 'Payment received' }).count()).toBe(0);
    expect(await invoiceStatus(invoice.invoiceId)).toBe('issued');
    expectSlugKeptSecret(payPage, invoice.invoiceUrlSlug);
  });

  it('tells the payer how long to wait once the invoice took its cap of declines', async () => {
    const invoice = await issuedInvoice();
    // The cap's history as five declines a minute apart, the oldest 40 minutes ago: 20 minutes left
    // (19 once a slow run has spent a minute getting to the click).
    const oldest = Date.now() - 40 * 60_000;
    await documentClient().send(
      new UpdateCommand({
        TableName: t.runtime.tableName,
        Key: keys.invoice(merchantId, invoice.invoiceId),
        UpdateExpression: 'SET payLinkDeclinedAt = :history',
        ExpressionAttributeValues: { ':history': [4, 3, 2, 1, 0].map((minute) => oldest + minute * 60_000) },
      }),
    );
    const { page } = await openPayLink(invoice.invoiceUrlSlug);
    await page.getByRole('heading', { name: `Invoice ${invoice.invoiceNumber}` }).waitFor();
    await payByCard(page, '4242424242424242');

    await page
      .getByRole('alert')
      .filter({ hasText: /Try again in (19|20) minutes\./ })
      .waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('can’t take more payment attempts for now');
    expect(await invoiceStatus(invoice.invoiceId)).toBe('issued');
  });

  it('says only "Invoice not found" for a slug that names no invoice', async () => {
    const { page } = await openPayLink(randomBytes(32).toString('base64url'));
    await page.getByRole('heading', { name: 'Invoice not found' }).waitFor();
    const text = (await page.getByRole('main').innerText()).replace(/\s+/g, ' ').trim();
    expect(text).toBe('Invoice not found Check the link, or ask the sender for a new one.');
  });

  it('says a void invoice was voided and offers no payment', async () => {
    const invoice = await issuedInvoice();
    expectOk(await invoiceAction(t.api, merchantId, invoice.invoiceId, 'void'));
    const { page } = await openPayLink(invoice.invoiceUrlSlug);
    await page.getByRole('heading', { name: 'This invoice was voided' }).waitFor();
    expect(await page.getByRole('button', { name: /^Pay/ }).count()).toBe(0);
  });

  it('fits a 360 px wide screen and takes a bank account payment', async () => {
    const invoice = await issuedInvoice({ acceptedPaymentMethods: ['bank_account'] });
    const { page } = await openPayLink(invoice.invoiceUrlSlug, { width: 360, height: 740 });
    await page.getByRole('heading', { name: `Invoice ${invoice.invoiceNumber}` }).waitFor();
    // No sideways scrolling (the expression runs in the page, whose DOM types this project doesn't load).
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    // One accepted method: no choice to make, and no card fields.
    expect(await page.getByRole('radio').count()).toBe(0);
    expect(await page.getByLabel('Card number').isVisible()).toBe(false);
    await page.screenshot({ path: `${artifacts}pay-page-mobile.png`, fullPage: true });

    await page.getByLabel('Routing number').fill('110000000');
    await page.getByLabel('Account number').fill('0001-2345-6789');
    await page.getByRole('button', { name: 'Pay $27.50' }).click();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    expect(await invoiceStatus(invoice.invoiceId)).toBe('paid');
  });
});

describe('the browser the tests drive', () => {
  it('is the Chromium shipped in @sparticuz/chromium when the machine has none, and it renders the pay page', async () => {
    const packaged = await chromiumExecutable(join(artifacts, 'no-such-chromium'));
    expect(packaged.source).toBe('package');
    const own = await chromium.launch({ executablePath: packaged.path, args: chromiumLaunchArgs });
    try {
      const page = await own.newPage();
      await page.goto(`${t.runtime.baseUrl}/pay#${'x'.repeat(43)}`);
      await page.getByRole('heading', { name: 'Invoice not found' }).waitFor();
    } finally {
      await own.close();
    }
  });
});
