import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../functions/domain/ids';
import { createKey, createMerchant } from '../../tools/admin/operations';
import { launchChromium } from '../support/chromium';
import {
  adjustmentLine,
  createInvoice,
  expectOk,
  invoiceAction,
  invoiceBody,
} from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { type InboxEmail, inboxFor } from '../support/mail-inbox';

/*
 * The invoice email as its customer gets it (docs/emails.md): from the local inbox, its link opens
 * that invoice's pay page in Chromium, and whatever the merchant or its customer typed (the
 * merchant's name, the notes, a line's description) arrives as text.
 */

const hostile = (where: string) => `<script>alert("${where}")</script>`;

let t: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [browser, t] = await Promise.all([launchChromium(), startTestRuntime()]);
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

describe('an invoice email', () => {
  it('carries the link to its invoice’s pay page, and every typed text as text', async () => {
    // A merchant whose name holds markup, with a key of the runtime's stage.
    const merchant = await createMerchant(hostile('merchant'));
    const api = apiClient(t.runtime.baseUrl, (await createKey(merchant.merchantId, t.runtime.stage)).apiKey);
    const refs = await invoiceFixtures(api, merchant.merchantId);
    const address = `ada.${newId('cust').slice(-8)}@example.com`;
    const customer = expectOk(
      await api('POST', '/customers', {
        body: { merchantId: merchant.merchantId, name: 'Ada Buyer', email: address },
        idempotencyKey: newId('cust'),
      }),
    );
    const body = invoiceBody(
      merchant.merchantId,
      { ...refs, customerId: customer.customerId },
      { notes: hostile('notes') },
    );
    const invoice = expectOk(
      await createInvoice(api, {
        ...body,
        lineItems: [...body.lineItems, adjustmentLine(250, 'tax', hostile('line'))],
      }),
    );
    expectOk(await invoiceAction(api, merchant.merchantId, invoice.invoiceId, 'issue'));

    await expect.poll(async () => (await inboxFor(t, [address])).length, { timeout: 20_000 }).toBe(1);
    const [email] = (await inboxFor(t, [address])) as [InboxEmail];
    const html = email.body.html ?? '';
    for (const where of ['merchant', 'notes', 'line']) {
      expect(html).not.toContain(hostile(where));
      expect(html).toContain(`&lt;script&gt;alert(&quot;${where}&quot;)&lt;/script&gt;`);
      expect(email.body.text).toContain(hostile(where));
    }
    expect(email.subject).toContain(hostile('merchant'));

    const link = /href="([^"]*\/pay#[^"]*)"/.exec(html)?.[1];
    expect(link).toBe(`${t.runtime.baseUrl}/pay#${invoice.invoiceUrlSlug}`);
    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC' });
    try {
      const page = await context.newPage();
      // The email as a mail client shows it: no script of it runs.
      const alerts: string[] = [];
      page.on('dialog', async (dialog) => {
        alerts.push(dialog.message());
        await dialog.dismiss();
      });
      await page.setContent(html, { waitUntil: 'load' });
      expect(alerts).toEqual([]);
      await page.locator(`a[href*="/pay#"]`).first().click();
      await page
        .getByRole('heading', { name: `Invoice ${invoice.invoiceNumber}` })
        .waitFor({ timeout: 10_000 });
      expect(page.url()).toBe(link);
      expect(alerts).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
