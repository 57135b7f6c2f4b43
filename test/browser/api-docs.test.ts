import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { LocalDocumentPaths } from '../../tools/local/runtime';
import { ApiDocsFiles, emptyImage } from '../../tools/openapi/build-api-docs';
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

/** A page in a context of its own, with what it tried beyond its own origin and what went wrong. */
interface OpenedPage {
  readonly page: Page;
  /** Requests for another host (or, for a file, any host): recorded and dropped. */
  readonly outside: string[];
  /** Requests that started and failed. */
  readonly failed: string[];
  readonly consoleErrors: string[];
  readonly pageErrors: string[];
  /** http(s) loads the page's own policy refused (they never reach the route handler). */
  refusedByPolicy(): Promise<string[]>;
}

async function openPage(url: string): Promise<OpenedPage> {
  const context = await browser.newContext();
  onTestFinished(() => context.close());
  const { origin, protocol } = new URL(url);
  const outside: string[] = [];
  // Only requests the page's own policy lets through reach this handler; any for another host is
  // recorded and dropped, so the test never depends on the network.
  await context.route(
    (candidate) => (protocol === 'file:' ? candidate.protocol !== 'file:' : candidate.origin !== origin),
    (route) => {
      outside.push(route.request().url());
      return route.abort();
    },
  );
  const page = await context.newPage();
  const opened = {
    page,
    outside,
    failed: [] as string[],
    consoleErrors: [] as string[],
    pageErrors: [] as string[],
  };
  page.on('requestfailed', (request) => opened.failed.push(request.url()));
  page.on('pageerror', (error) => opened.pageErrors.push(error.message));
  // A request the page's policy refuses is a console error and a violation event instead. (The
  // bundled script also tries an eval, which the policy refuses too; that is no request.)
  page.on('console', (message) => {
    if (message.type() === 'error') opened.consoleErrors.push(message.text());
  });
  await page.addInitScript({
    content:
      'window.refusedByPolicy = []; document.addEventListener("securitypolicyviolation", ' +
      '(event) => { if (/^https?:/.test(event.blockedURI)) window.refusedByPolicy.push(event.blockedURI); });',
  });
  const response = await page.goto(url);
  expect(response?.status() ?? 200).toBe(200);
  return { ...opened, refusedByPolicy: () => page.evaluate('window.refusedByPolicy') as Promise<string[]> };
}

/**
 * A sidebar entry changes the fragment only once Redoc's script has taken over the page; the
 * server-rendered link alone would leave the page for /invoices.
 */
async function clickInvoicesOnceRedocRuns(page: Page): Promise<void> {
  const before = page.url().replace(/#.*$/, '');
  await page.locator('[data-component-name="Menu/MenuItem"] a', { hasText: 'Invoices' }).first().click();
  await expect.poll(() => page.url(), { timeout: 20_000 }).toBe(`${before}#/invoices`);
}

/** What the test reads of an <img> (this project compiles without the DOM's types). */
interface ImageState {
  readonly currentSrc: string;
  readonly complete: boolean;
  readonly naturalWidth: number;
  checkVisibility(options: { opacityProperty: boolean; visibilityProperty: boolean }): boolean;
}

/** Every image of the page as a reader gets it: whether it loaded, and whether it is shown. */
function imagesOf(page: Page) {
  return page.locator('img').evaluateAll((elements) =>
    elements.map((element) => {
      const image = element as unknown as ImageState;
      return {
        src: image.currentSrc,
        loaded: image.complete && image.naturalWidth > 0,
        shown: image.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
      };
    }),
  );
}

const sources = [
  {
    name: 'docs/api.html opened as a file',
    url: () => new URL(`../../${ApiDocsFiles.page}`, import.meta.url).href,
  },
  {
    name: 'the page the runtime serves at /docs',
    url: () => `${t.runtime.baseUrl}${LocalDocumentPaths.apiReference}`,
  },
];

describe('the API reference page in Chromium', () => {
  it('works from its own inline script and sends no request beyond the runtime', async () => {
    const opened = await openPage(`${t.runtime.baseUrl}${LocalDocumentPaths.apiReference}`);
    await clickInvoicesOnceRedocRuns(opened.page);
    await opened.page
      .getByText('Create a draft invoice with the next invoice number')
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });

    expect(opened.outside).toEqual([]);
    expect(await opened.refusedByPolicy()).toEqual([]);
    expect(opened.consoleErrors).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
  });

  it.each(sources)(
    '$name: is titled "Merchant Payments API" and labels "API version 1448-03-01"',
    async ({ url }) => {
      const { page } = await openPage(url());
      await clickInvoicesOnceRedocRuns(page);
      expect(await page.title()).toBe('Merchant Payments API');
      expect(await page.locator('h1').allInnerTexts()).toEqual(['Merchant Payments API']);
      expect(await page.getByText('API version 1448-03-01', { exact: true }).isVisible()).toBe(true);
    },
  );

  it.each(sources)(
    '$name: shows no broken image or badge and loads nothing off the machine',
    async ({ url }) => {
      const opened = await openPage(url());
      await clickInvoicesOnceRedocRuns(opened.page);
      const images = await imagesOf(opened.page);
      expect(images.filter((image) => !image.loaded)).toEqual([]);
      // The build swaps the vendor credit's logo for an empty image; a reader must not see what is left.
      expect(images.filter((image) => image.shown && image.src === emptyImage)).toEqual([]);
      expect(await opened.page.getByText('API docs by').isVisible()).toBe(false);
      expect(opened.failed).toEqual([]);
      expect(opened.outside).toEqual([]);
      expect(await opened.refusedByPolicy()).toEqual([]);
    },
  );

  it('lists the runtime’s own base URL first among the servers on the page it serves', async () => {
    const { page } = await openPage(`${t.runtime.baseUrl}${LocalDocumentPaths.apiReference}`);
    await clickInvoicesOnceRedocRuns(page);
    const servers = page.getByTestId('panel-servers').first();
    const names = await servers.getByTestId('server-panel-item-name').allInnerTexts();
    expect(names[0]).toBe('Local runtime (npm start) on this machine.');
    expect(names.slice(1)).toEqual([
      'Sandbox: merchant_sbx… keys, simulated payments.',
      'Production: merchant_prd… keys.',
    ]);
    expect(await servers.getByText(t.runtime.baseUrl, { exact: true }).isVisible()).toBe(true);
  });
});
