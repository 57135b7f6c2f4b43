import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { LocalDocumentPaths } from '../../lib/local/runtime';
import { launchChromium } from '../support/chromium';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let t: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  await Promise.all([
    launchChromium().then((launched) => {
      browser = launched;
    }),
    startTestRuntime().then((started) => {
      t = started;
    }),
  ]);
});

// Either may be missing when the setup failed part way.
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

describe('the API reference page in Chromium', () => {
  it('works from its own inline script and sends no request beyond the runtime', async () => {
    const context = await browser.newContext();
    onTestFinished(() => context.close());
    const origin = new URL(t.runtime.baseUrl).origin;
    // Only requests the page's own policy let through reach this handler; any for another host is
    // recorded and dropped, so the test never depends on the network.
    const outside: string[] = [];
    await context.route(
      (url) => url.origin !== origin,
      (route) => {
        outside.push(route.request().url());
        return route.abort();
      },
    );
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // A request the page's policy refuses never reaches the route handler above: the browser
    // reports it as a console error and a violation event instead. (The bundled script also tries
    // an eval, which the policy refuses too; that is no request.)
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.addInitScript({
      content:
        'window.refusedByPolicy = []; document.addEventListener("securitypolicyviolation", ' +
        '(event) => { if (/^https?:/.test(event.blockedURI)) window.refusedByPolicy.push(event.blockedURI); });',
    });

    const response = await page.goto(`${t.runtime.baseUrl}${LocalDocumentPaths.apiReference}`);
    expect(response?.status()).toBe(200);
    // A sidebar entry changes the fragment only once Redoc's script has taken over the page; the
    // server-rendered link alone would leave /docs for /invoices.
    await page.locator('[data-component-name="Menu/MenuItem"] a', { hasText: 'Invoices' }).first().click();
    await expect.poll(() => page.url(), { timeout: 20_000 }).toBe(`${t.runtime.baseUrl}/docs#/invoices`);
    await page
      .getByText('Create a draft invoice with the next invoice number')
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });

    expect(outside).toEqual([]);
    expect(await page.evaluate('window.refusedByPolicy')).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
