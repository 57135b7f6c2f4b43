import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { portalBasePolicy } from '../../functions/domain/portal-framing';
import { launchChromium } from '../support/chromium';
import { newKey, startTestRuntime, type TestRuntime } from '../support/local-runtime';

const artifacts = fileURLToPath(new URL('../../test-results/', import.meta.url));
/** A well-formed portal session id that no session has. */
const unknownSessionId = `psn_${'0'.repeat(26)}`;
const closedPolicy = [...portalBasePolicy, "frame-ancestors 'none'"].join('; ');

let t: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  [browser, t] = await Promise.all([launchChromium(), startTestRuntime()]);
});

// Either may be missing when the setup failed part way.
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

/** What a stand-in for `POST /portal/exchange` answers (see the stand-in session tests below). */
interface ExchangeAnswer {
  readonly status: number;
  readonly body: unknown;
}

interface PortalPage {
  readonly page: Page;
  readonly response: Response | null;
  readonly requests: Request[];
  readonly problems: () => Promise<string[]>;
}

/**
 * Opens `path` (`/portal/<id>#<token>`) in a fresh context, recording its requests and every policy
 * violation, page error and console error: `securitypolicyviolation` events are collected by a
 * script the browser runs before the page's (DevTools injects it; the page's policy does not apply).
 */
async function openPortal(path: string, exchange?: ExchangeAnswer): Promise<PortalPage> {
  const context = await browser.newContext({
    viewport: { width: 1100, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const requests: Request[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request));
  page.on('console', (message) => {
    // A refused call's status is Chromium's note on the console, not a problem of the page.
    if (/^Failed to load resource/.test(message.text())) return;
    if (message.type() === 'error' || /Content Security Policy|Trusted Type/i.test(message.text())) {
      errors.push(`console: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  await page.addInitScript(`
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__violations.push(event.violatedDirective + ' ' + event.blockedURI);
    });
  `);
  if (exchange !== undefined) {
    await page.route('**/portal/exchange', (route) =>
      route.fulfill({
        status: exchange.status,
        contentType: 'application/json',
        body: JSON.stringify(exchange.body),
      }),
    );
  }
  const response = await page.goto(`${t.runtime.baseUrl}${path}`);
  const problems = async () => [
    ...errors,
    ...((await page.evaluate('window.__violations')) as string[]).map(
      (violation) => `violation: ${violation}`,
    ),
  ];
  return { page, response, requests, problems };
}

/** The `main` region's text, whitespace collapsed. */
async function mainText(page: Page): Promise<string> {
  return (await page.getByRole('main').innerText()).replace(/\s+/g, ' ').trim();
}

describe('the portal page', () => {
  it('loads its script and stylesheet under its policy with no violation, and says a link without its token is incomplete', async () => {
    const portal = await openPortal(`/portal/${unknownSessionId}`);
    const { page } = portal;
    await page.getByRole('heading', { level: 1, name: 'This link is incomplete' }).waitFor();
    expect(await mainText(page)).toContain('The portal link is missing the part after “#”.');
    // The stylesheet applied: the page's background is the portal's, not the browser's white.
    expect(await page.evaluate('getComputedStyle(document.documentElement).backgroundColor')).toBe(
      'rgb(244, 246, 249)',
    );
    expect(await page.getByRole('navigation').count()).toBe(0);
    expect(await portal.problems()).toEqual([]);
    // Nothing was asked of the service without a token, and nothing of anywhere else.
    const origins = new Set(portal.requests.map((request) => new URL(request.url()).origin));
    expect([...origins]).toEqual([t.runtime.baseUrl]);
    expect(portal.requests.filter((request) => request.method() !== 'GET')).toEqual([]);
    await page.screenshot({ path: `${artifacts}portal-no-token.png`, fullPage: true });
  });

  it('is served with its policy, no referrer, no sniffing, revalidation, and framed by nobody for an unknown session', async () => {
    const { response } = await openPortal(`/portal/${unknownSessionId}`);
    expect(response?.status()).toBe(200);
    const headers = response?.headers() ?? {};
    expect(headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': closedPolicy,
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    });
  });

  it('serves the same page, framed by nobody, for a malformed id', async () => {
    const { page, response } = await openPortal('/portal/not-a-session#sometoken');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toBe(closedPolicy);
    await page.getByRole('heading', { level: 1 }).waitFor();
  });

  it('serves its script and stylesheet with their types, cached for a year, and 404s any other asset name', async () => {
    const portal = await openPortal(`/portal/${unknownSessionId}`);
    await portal.page.getByRole('heading', { level: 1, name: 'This link is incomplete' }).waitFor();
    const assets = portal.requests.filter((request) =>
      new URL(request.url()).pathname.startsWith('/portal/assets/'),
    );
    const byType = Object.fromEntries(
      await Promise.all(
        assets.map(async (request) => {
          const response = await request.response();
          const headers = response?.headers() ?? {};
          return [
            request.resourceType(),
            {
              status: response?.status(),
              type: headers['content-type'],
              cache: headers['cache-control'],
              path: new URL(request.url()).pathname,
            },
          ];
        }),
      ),
    );
    const immutable = 'public, max-age=31536000, immutable';
    expect(byType).toEqual({
      script: {
        status: 200,
        type: 'text/javascript; charset=utf-8',
        cache: immutable,
        path: expect.stringMatching(/^\/portal\/assets\/portal-[\w-]{12}\.js$/),
      },
      stylesheet: {
        status: 200,
        type: 'text/css; charset=utf-8',
        cache: immutable,
        path: expect.stringMatching(/^\/portal\/assets\/portal-[\w-]{12}\.css$/),
      },
    });
    const missing = await fetch(`${t.runtime.baseUrl}/portal/assets/portal-000000000000.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      error: { code: 'not_found', requestId: expect.any(String) },
    });
  });

  it('drops the token from the address at once and sends it only in the exchange body', async () => {
    const token = 'portal-link-token-for-this-test';
    const portal = await openPortal(`/portal/${unknownSessionId}#${token}`);
    const { page } = portal;
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(page.url()).toBe(`${t.runtime.baseUrl}/portal/${unknownSessionId}`);
    const exchanges = portal.requests.filter((request) => request.method() === 'POST');
    expect(exchanges.map((request) => new URL(request.url()).pathname)).toEqual(['/portal/exchange']);
    expect(exchanges[0]?.postDataJSON()).toEqual({ token });
    for (const request of portal.requests) expect(request.url()).not.toContain(token);
    expect(await page.evaluate('JSON.stringify(sessionStorage)')).toBe('{}');
    expect(await portal.problems()).toEqual([]);
  });
});

/**
 * Until `POST /portal/exchange` serves sessions, the browser answers it itself: with the error each
 * refused link gets, or with a session whose token is the ready merchant's API key, which the
 * service's own routes accept as a bearer as they will accept a session token. Everything after the
 * exchange is the real service.
 */
describe('the portal page with a stand-in exchange', () => {
  const standIn = (scope: 'read' | 'manage', sessionToken = t.runtime.apiKey): ExchangeAnswer => ({
    status: 200,
    body: {
      sessionToken,
      portalSession: {
        portalSessionId: unknownSessionId,
        merchantId: t.runtime.merchantId,
        scope,
        allowedOrigins: [],
        expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      },
    },
  });
  const refused = (status: number, code: string): ExchangeAnswer => ({
    status,
    body: { error: { code, message: code, requestId: 'r' } },
  });

  it.each([
    [401, 'unauthorized', 'This link is not valid'],
    [410, 'portal_link_used', 'This link was already used'],
    [410, 'portal_session_expired', 'This portal session has expired'],
    [410, 'portal_session_revoked', 'This portal session was ended'],
  ])('says what a %i %s means and shows no data', async (status, code, heading) => {
    const { page, requests } = await openPortal(`/portal/${unknownSessionId}#token`, refused(status, code));
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    expect(requests.filter((request) => request.url().includes('/merchants/'))).toEqual([]);
    expect(await page.getByRole('navigation').count()).toBe(0);
  });

  it('says the session ended when the service refuses its token mid-session', async () => {
    const portal = await openPortal(
      `/portal/${unknownSessionId}#token`,
      standIn('manage', 'portal_not-a-key'),
    );
    await portal.page.getByRole('heading', { level: 1, name: 'Your portal session has ended' }).waitFor();
    expect(await portal.page.evaluate('JSON.stringify(sessionStorage)')).toBe('{}');
    expect(await portal.problems()).toEqual([]);
  });

  it('shows a read session the endpoints with no control that changes anything, and keeps it over a reload', async () => {
    const created = await t.api('POST', `/merchants/${t.runtime.merchantId}/webhook-endpoints`, {
      body: {
        url: 'https://read.example.com/hooks',
        name: 'Read view <b>endpoint</b>',
        eventTypes: ['invoices.InvoicePaid'],
      },
      idempotencyKey: newKey(),
    });
    expect(created.status).toBe(201);
    const portal = await openPortal(`/portal/${unknownSessionId}#token`, standIn('read'));
    const { page } = portal;
    await page.getByRole('heading', { level: 2, name: 'Read view <b>endpoint</b>' }).waitFor();
    await page
      .getByText(/finished deliver|No finished delivery/)
      .first()
      .waitFor();
    expect(await page.getByText('View only.').count()).toBe(1);
    const buttons = await page.getByRole('button').allInnerTexts();
    expect(buttons.filter((label) => !/^Show more/.test(label))).toEqual([]);
    await page.screenshot({ path: `${artifacts}portal-read.png`, fullPage: true });
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Read view <b>endpoint</b>' }).waitFor();
    expect(await portal.problems()).toEqual([]);
  });

  it('lets a manage session add an endpoint, shows its secret once, and sends a test delivery that its list shows', async () => {
    const portal = await openPortal(`/portal/${unknownSessionId}#token`, standIn('manage'));
    const { page } = portal;
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an endpoint' });
    await dialog.getByLabel('Name (optional)').fill('Orders');
    await dialog.getByLabel('URL (https)').fill('https://orders.example.com/hooks');
    await dialog.getByRole('checkbox', { name: 'invoices.InvoicePaid' }).check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = page.getByRole('dialog', { name: 'Signing secret' });
    expect(await secret.getByLabel('Signing secret').innerText()).toMatch(/^whsec_/);
    await secret.getByRole('button', { name: 'Done' }).click();
    // The list was drawn anew behind the dialogs, so focus goes to its heading.
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Webhook endpoints');

    await page.getByRole('heading', { level: 2, name: 'Orders' }).getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    expect(new URL(page.url()).search).toMatch(/^\?endpoint=whk_/);
    await page.getByRole('button', { name: 'Send test' }).click();
    await page
      .getByRole('dialog', { name: 'Send a test delivery' })
      .getByRole('button', { name: 'Send test' })
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: /Test delivery whkdel_\w+ sent/ })
      .waitFor();
    await page.reload();
    await page.getByRole('table', { name: 'Deliveries, newest first' }).waitFor();
    expect(await page.getByRole('cell', { name: 'payments.PaymentCreated (test)' }).count()).toBe(1);
    await page.screenshot({ path: `${artifacts}portal-endpoint.png`, fullPage: true });
    expect(await portal.problems()).toEqual([]);
  });
});

// The flows that need a portal session (exchange, manage and read sessions, expired, revoked and
// reused links, another merchant's ids, axe-core and keyboard-only use) slot in here as their own
// describe blocks once POST /portal/exchange serves sessions.
