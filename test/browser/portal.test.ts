import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import axe from 'axe-core';
import type { Browser, BrowserContext, Page, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { newId } from '../../functions/domain/ids';
import { portalBasePolicy } from '../../functions/domain/portal-framing';
import { newDelivery } from '../../functions/domain/webhook-delivery';
import { documentClient, tableName } from '../../functions/store/client';
import { buildPutNewDelivery } from '../../functions/store/webhook-deliveries';
import { endpointKeys } from '../../functions/store/webhook-endpoints';
import { launchChromium } from '../support/chromium';
import { webhookSettings } from '../support/e2e-test';
import { endpointDeliveries, waitForEndpointDeliveries } from '../support/endpoint-deliveries';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver';
import { expectOk, issueInvoice } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { type ApiClient, newKey, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { createPortalSession, expirePortalSession, linkTokenOf } from '../support/portal-sessions';

const artifacts = fileURLToPath(new URL('../../test-results/', import.meta.url));
/** A well-formed portal session id that no session has. */
const unknownSessionId = `psn_${'0'.repeat(26)}`;
const closedPolicy = [...portalBasePolicy, "frame-ancestors 'none'"].join('; ');

/** A merchant of the file's runtime with its own key, so each flow sees only its own data. */
interface Merchant {
  readonly merchantId: string;
  readonly api: ApiClient;
}

/** A merchant with one named endpoint and one event delivered to it. */
interface ShownMerchant extends Merchant {
  readonly endpointId: string;
  readonly endpointName: string;
  readonly endpointUrl: string;
  readonly invoiceId: string;
  readonly eventId: string;
  readonly deliveryId: string;
}

let t: TestRuntime;
let browser: Browser;
/** Answers 200 to every delivery of the shown merchants. */
let receiver: HttpsReceiver;
/** The merchant whose portal most tests open. */
let shop: ShownMerchant;
/** A merchant whose ids the shop's portal is handed. */
let other: ShownMerchant;

beforeAll(async () => {
  await mkdir(artifacts, { recursive: true });
  [browser, t, receiver] = await Promise.all([
    launchChromium(),
    startTestRuntime(webhookSettings),
    startHttpsReceiver(),
  ]);
  [shop, other] = await Promise.all([
    shownMerchant('Orders <b>hook</b>', '/shop'),
    shownMerchant('Other merchant’s hook', '/other'),
  ]);
}, 120_000);

// Any of them may be missing when the setup failed part way.
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await t?.stop();
});

/** A new merchant with an endpoint named `endpointName` and one invoice's event delivered to it. */
async function shownMerchant(endpointName: string, path: string): Promise<ShownMerchant> {
  const merchant = await t.anotherMerchant();
  const { merchantId, api } = merchant;
  const endpointUrl = receiver.url(path);
  const endpoint = expectOk(
    await api('POST', `/merchants/${merchantId}/webhook-endpoints`, {
      body: { url: endpointUrl, name: endpointName, eventTypes: ['invoices.InvoiceSent'] },
      idempotencyKey: newKey(),
    }),
  );
  const endpointId = endpoint.webhookEndpointId as string;
  const invoice = await issueInvoice(api, merchantId, await invoiceFixtures(api, merchantId));
  // expect.poll works inside a test only; this runs before the first.
  const delivery = await vi.waitFor(
    async () => {
      const [newest] = await endpointDeliveries(api, merchantId, endpointId);
      if (newest?.status !== 'succeeded') throw new Error(`The delivery is ${newest?.status ?? 'not made'}`);
      return newest;
    },
    { timeout: 20_000, interval: 100 },
  );
  return {
    ...merchant,
    endpointId,
    endpointName,
    endpointUrl,
    invoiceId: invoice.invoiceId,
    eventId: delivery.eventId,
    deliveryId: delivery.webhookDeliveryId,
  };
}

interface PortalPage {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly response: Response | null;
  readonly requests: Request[];
  readonly problems: () => Promise<string[]>;
}

interface PortalOptions {
  /** For axe-core, whose script the page's policy would refuse. */
  readonly bypassCSP?: boolean;
  /** Opens the page in this context (a new page of it) instead of a fresh one. */
  readonly context?: BrowserContext;
}

/**
 * Opens `url` (a portal session's link, or a path of the runtime) in a fresh context, recording its
 * requests and every policy violation, page error and console error: `securitypolicyviolation`
 * events are collected by a script the browser runs before the page's (DevTools injects it; the
 * page's policy does not apply).
 */
async function openPortal(url: string, options: PortalOptions = {}): Promise<PortalPage> {
  const context =
    options.context ??
    (await browser.newContext({
      viewport: { width: 1100, height: 800 },
      locale: 'en-US',
      timezoneId: 'UTC',
      bypassCSP: options.bypassCSP ?? false,
    }));
  if (options.context === undefined) onTestFinished(() => context.close());
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
  const response = await page.goto(url.startsWith('/') ? `${t.runtime.baseUrl}${url}` : url);
  const problems = async () => [
    ...errors,
    ...((await page.evaluate('window.__violations')) as string[]).map(
      (violation) => `violation: ${violation}`,
    ),
  ];
  return { page, context, response, requests, problems };
}

/** Mints a session with the merchant's key and loads its link, as the merchant's user would. */
async function openSession(
  merchant: Merchant,
  body: Record<string, unknown>,
  options: PortalOptions = {},
): Promise<PortalPage & { readonly created: Record<string, any> }> {
  const created = await createPortalSession(merchant.api, merchant.merchantId, body);
  return { ...(await openPortal(created.url, options)), created };
}

/** The `main` region's text, whitespace collapsed. */
async function mainText(page: Page): Promise<string> {
  return (await page.getByRole('main').innerText()).replace(/\s+/g, ' ').trim();
}

const heading = (page: Page, level: number, name: string | RegExp) =>
  page.getByRole('heading', { level, name, exact: typeof name === 'string' });

/** A link of the page's navigation bar. */
const navLink = (page: Page, name: string) => page.getByRole('navigation').getByRole('link', { name });

/** Waits for the endpoint list of an opened session. */
const endpointsShown = (page: Page) => heading(page, 1, 'Webhook endpoints').waitFor();

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${artifacts}portal-${name}.png`, fullPage: true });
}

/** The session the page keeps in `sessionStorage`, read in the page's own context. */
function storedSessions(page: Page): Promise<string> {
  return page.evaluate('JSON.stringify(sessionStorage)') as Promise<string>;
}

describe('the portal page', () => {
  it('loads its script and stylesheet under its policy with no violation, and says a link without its token is incomplete', async () => {
    const portal = await openPortal(`/portal/${unknownSessionId}`);
    const { page } = portal;
    await heading(page, 1, 'This link is incomplete').waitFor();
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
    await screenshot(page, 'no-token');
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
    await heading(portal.page, 1, 'This link is incomplete').waitFor();
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
});

describe('opening a portal link', () => {
  it('drops the link token from the address at once, sends it only in the exchange body, and keeps only the session token', async () => {
    const portal = await openSession(shop, { scope: 'read' });
    const { page, created } = portal;
    const linkToken = linkTokenOf(created.url);
    await endpointsShown(page);
    expect(page.url()).toBe(`${t.runtime.baseUrl}/portal/${created.portalSessionId}`);
    const posts = portal.requests.filter((request) => request.method() === 'POST');
    expect(posts.map((request) => new URL(request.url()).pathname)).toEqual(['/portal/exchange']);
    expect(posts[0]?.postDataJSON()).toEqual({ token: linkToken });
    for (const request of portal.requests) expect(request.url()).not.toContain(linkToken);
    const stored = JSON.parse(await storedSessions(page));
    expect(Object.keys(stored)).toEqual([`merchant-portal:${created.portalSessionId}`]);
    const session = JSON.parse(stored[`merchant-portal:${created.portalSessionId}`]);
    expect(session.sessionToken).toMatch(/^portal_sbx/);
    expect(session.portalSession).toMatchObject({
      portalSessionId: created.portalSessionId,
      merchantId: shop.merchantId,
      scope: 'read',
    });
    expect(JSON.stringify(stored)).not.toContain(linkToken);
    // Every call after the exchange carries the session's bearer, never the link's token.
    const calls = portal.requests.filter((request) =>
      new URL(request.url()).pathname.startsWith('/merchants/'),
    );
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(await call.headerValue('authorization')).toBe(`Bearer ${session.sessionToken}`);
    }
    expect(await portal.problems()).toEqual([]);
  });
});

async function revoke(merchant: Merchant, portalSessionId: string): Promise<void> {
  expectOk(
    await merchant.api('DELETE', `/merchants/${merchant.merchantId}/portal-sessions/${portalSessionId}`, {
      idempotencyKey: newKey(),
    }),
  );
}

/** Asserts the page shows nothing of `merchant`: no endpoint, no event, and asked for none. */
async function expectNoDataOf(portal: PortalPage, merchant: ShownMerchant): Promise<void> {
  const text = await portal.page.locator('body').innerText();
  for (const value of [merchant.endpointName, merchant.endpointUrl, merchant.eventId, merchant.invoiceId]) {
    expect(text).not.toContain(value);
  }
  expect(await portal.page.getByRole('navigation').count()).toBe(0);
  expect(await portal.page.getByRole('table').count()).toBe(0);
}

describe('a link opened again', () => {
  it('keeps the session in the tab that opened it, with no second exchange, and is spent for any other', async () => {
    const portal = await openSession(shop, { scope: 'read' });
    const { page, created } = portal;
    await endpointsShown(page);
    const stored = await storedSessions(page);
    // The embedding app renders its frame again with the same link, in the same tab: only the
    // fragment changes, and the page loads again to take it out of the address bar.
    const loaded = page.waitForEvent('load');
    await page.goto(created.url);
    await loaded;
    await page.waitForURL((url) => url.hash === '');
    await endpointsShown(page);
    expect(await storedSessions(page)).toBe(stored);
    const exchanges = portal.requests.filter(
      (request) => new URL(request.url()).pathname === '/portal/exchange',
    );
    expect(exchanges).toHaveLength(1);
    // A tab of its own holds no session: for it the link was used.
    const other = await openPortal(created.url);
    await heading(other.page, 1, 'This link was already used').waitFor();
    await expectNoDataOf(other, shop);
    expect(await portal.problems()).toEqual([]);
  });
});

describe('a link that does not open', () => {
  const reads = (portal: PortalPage) =>
    portal.requests.filter((request) => /^\/(merchants|events)\//.test(new URL(request.url()).pathname));

  it.each([
    [
      'expired',
      'This portal session has expired',
      async (created: Record<string, any>) => expirePortalSession(created.portalSessionId),
    ],
    [
      'revoked',
      'This portal session was ended',
      async (created: Record<string, any>) => revoke(shop, created.portalSessionId),
    ],
    [
      'used',
      'This link was already used',
      async (created: Record<string, any>) => {
        const first = await openPortal(created.url);
        await endpointsShown(first.page);
      },
    ],
  ])('says a link cannot open once %s, and shows and asks for no data', async (name, title, spoil) => {
    const created = await createPortalSession(shop.api, shop.merchantId, { scope: 'manage' });
    await spoil(created);
    const portal = await openPortal(created.url);
    await heading(portal.page, 1, title).waitFor();
    expect(await mainText(portal.page)).toContain(
      'Open the portal again from the app that gave you the link.',
    );
    await expectNoDataOf(portal, shop);
    expect(reads(portal)).toEqual([]);
    expect(await storedSessions(portal.page)).toBe('{}');
    expect(await portal.problems()).toEqual([]);
    await screenshot(portal.page, `link-${name}`);
  });

  it("says a link whose secret is not the session's is not valid, and the real link still opens", async () => {
    const created = await createPortalSession(shop.api, shop.merchantId, { scope: 'read' });
    const forged = `${created.url.slice(0, -43)}${randomBytes(32).toString('base64url')}`;
    const refused = await openPortal(forged);
    await heading(refused.page, 1, 'This link is not valid').waitFor();
    await expectNoDataOf(refused, shop);
    expect(reads(refused)).toEqual([]);
    const opened = await openPortal(created.url);
    await endpointsShown(opened.page);
  });

  it.each([
    ['revoked', (created: Record<string, any>) => revoke(shop, created.portalSessionId)],
    ['expired', (created: Record<string, any>) => expirePortalSession(created.portalSessionId)],
  ])(
    'ends an open session that is %s at its next call, dropping its token and every view',
    async (_name, end) => {
      const portal = await openSession(shop, { scope: 'manage' });
      const { page, created } = portal;
      await heading(page, 2, shop.endpointName).waitFor();
      // The list's success meters read deliveries after it shows; once they have, the session's
      // next call is the click below, not one of theirs that could end the session first.
      await expect.poll(() => page.getByText(/^Counting the last 24 hours/).count()).toBe(0);
      await end(created);
      await navLink(page, 'Events').click();
      await heading(page, 1, 'Your portal session has ended').waitFor();
      expect(await storedSessions(page)).toBe('{}');
      await expectNoDataOf(portal, shop);
      // A reload has no session left to use.
      await page.reload();
      await heading(page, 1, 'This link is incomplete').waitFor();
      expect(await portal.problems()).toEqual([]);
    },
  );
});

/** The labels of every button the page shows now. */
const buttonLabels = (page: Page) => page.getByRole('button').allInnerTexts();
/** Buttons that change nothing: paging and copying. */
const readOnlyButton = /^(Show more (endpoints|deliveries|events)|Copy payload)$/;

/** A call made from the page's own context with the session's bearer from `sessionStorage`. */
async function callFromPage(
  page: Page,
  portalSessionId: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; code: string | undefined }> {
  return page.evaluate(
    async ([key, method, path, body]) => {
      const { sessionToken } = JSON.parse(sessionStorage.getItem(key as string) ?? '{}');
      const response = await fetch(path as string, {
        method: method as string,
        headers: {
          Authorization: `Bearer ${sessionToken}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': crypto.randomUUID(),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const answer = (await response.json().catch(() => ({}))) as { error?: { code?: string } };
      return { status: response.status, code: answer?.error?.code };
    },
    [`merchant-portal:${portalSessionId}`, method, path, body] as const,
  );
}

describe('a read session', () => {
  it('sees endpoints, deliveries, a delivery and events with no control that changes anything, and keeps its session over a reload', async () => {
    const portal = await openSession(shop, { scope: 'read' });
    const { page } = portal;
    await heading(page, 2, shop.endpointName).waitFor();
    await page
      .getByText(/finished deliver/)
      .first()
      .waitFor();
    expect(await page.getByText('View only.').count()).toBe(1);
    const seen: Record<string, string[]> = {};
    const look = async (view: string) => {
      seen[view] = (await buttonLabels(page)).filter((label) => !readOnlyButton.test(label));
    };
    await look('endpoints');
    await screenshot(page, 'read');

    await heading(page, 2, shop.endpointName).getByRole('link').click();
    await page.getByRole('table', { name: 'Deliveries, newest first' }).waitFor();
    await look('endpoint');
    await page.getByRole('link', { name: `Attempts and payload of delivery ${shop.deliveryId}` }).click();
    await page.getByRole('table', { name: 'Attempts' }).waitFor();
    await look('delivery');
    await page.getByRole('link', { name: shop.eventId }).click();
    await page.getByRole('table', { name: 'Deliveries of this event' }).waitFor();
    await look('event');
    await navLink(page, 'Events').click();
    await page.getByRole('table', { name: 'Events, newest first' }).waitFor();
    await look('events');
    expect(seen).toEqual({ endpoints: [], endpoint: [], delivery: [], event: [], events: [] });
    expect(await page.locator('form, dialog').count()).toBe(0);

    await page.reload();
    await page.getByRole('table', { name: 'Events, newest first' }).waitFor();
    expect(await portal.problems()).toEqual([]);
  });

  it("gets 403 on every change the page's own context sends with its bearer, and nothing changes", async () => {
    const portal = await openSession(shop, { scope: 'read' });
    const { page, created } = portal;
    await endpointsShown(page);
    const endpoints = `/merchants/${shop.merchantId}/webhook-endpoints`;
    const endpoint = `${endpoints}/${shop.endpointId}`;
    const listed = () => shop.api('GET', endpoints, { query: { limit: 100 } });
    const deliveries = () => shop.api('GET', `${endpoint}/deliveries`, { query: { limit: 100 } });
    const before = { endpoints: (await listed()).body, deliveries: (await deliveries()).body };
    const changes: [string, string, unknown?][] = [
      ['POST', endpoints, { url: 'https://hooks.example.com/new', eventTypes: ['invoices.InvoicePaid'] }],
      ['PATCH', endpoint, { status: 'disabled' }],
      ['DELETE', endpoint],
      ['POST', `${endpoint}/rotate-secret`, {}],
      ['POST', `${endpoint}/test`, { eventType: 'invoices.InvoiceSent' }],
      ['POST', `${endpoint}/deliveries/${shop.deliveryId}/redeliver`, {}],
      ['POST', `${endpoint}/recover`, { since: new Date(Date.now() - 3600_000).toISOString() }],
      ['POST', `/merchants/${shop.merchantId}/portal-sessions`, { scope: 'manage' }],
    ];
    const answers: Record<string, unknown> = {};
    for (const [method, path, body] of changes) {
      answers[`${method} ${path}`] = await callFromPage(page, created.portalSessionId, method, path, body);
    }
    expect(answers).toEqual(
      Object.fromEntries(
        changes.map(([method, path]) => [`${method} ${path}`, { status: 403, code: 'forbidden' }]),
      ),
    );
    // The same bearer still reads: the refusals were for the scope, not the session.
    expect(await callFromPage(page, created.portalSessionId, 'GET', endpoints)).toEqual({
      status: 200,
      code: undefined,
    });
    expect({ endpoints: (await listed()).body, deliveries: (await deliveries()).body }).toEqual(before);
  });
});

describe('a manage session', () => {
  /** Waits, through the API, until every delivery to the endpoint is exhausted. */
  const allExhausted = (merchant: Merchant, endpointId: string, count: number) =>
    waitForEndpointDeliveries(
      merchant.api,
      merchant.merchantId,
      endpointId,
      (items) => items.length === count && items.every((item) => item.status === 'exhausted'),
    );

  it('adds an endpoint, shows a failed delivery’s attempts, redelivers it to success, and recovers the rest', async () => {
    const failing = await startHttpsReceiver({ respondWith: () => ({ status: 500, body: 'down' }) });
    onTestFinished(() => failing.close());
    const merchant = await t.anotherMerchant();
    const refs = await invoiceFixtures(merchant.api, merchant.merchantId);
    const portal = await openSession(merchant, { scope: 'manage' });
    const { page } = portal;
    await page.getByText('No webhook endpoints yet. Add one to receive events.').waitFor();

    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'Add an endpoint' });
    await form.getByLabel('Name (optional)').fill('Billing');
    await form.getByLabel('URL (https)').fill(failing.url('/billing'));
    await form.getByRole('checkbox', { name: 'invoices.InvoiceSent' }).check();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = page.getByRole('dialog', { name: 'Signing secret' });
    expect(await secret.getByLabel('Signing secret').innerText()).toMatch(/^whsec_/);
    await secret.getByRole('button', { name: 'Done' }).click();
    await heading(page, 2, 'Billing').getByRole('link').click();
    await heading(page, 1, 'Billing').waitFor();
    const endpointId = new URL(page.url()).searchParams.get('endpoint') ?? '';
    expect(endpointId).toMatch(/^whk_/);

    // Two events: one is redelivered by hand, the other is left to the recovery.
    for (let invoice = 0; invoice < 2; invoice += 1) {
      await issueInvoice(merchant.api, merchant.merchantId, refs);
    }
    // The router makes each event's delivery when its stream record arrives, and one delivery's
    // first attempt can come before the other event is routed: wait for both through the API.
    await waitForEndpointDeliveries(
      merchant.api,
      merchant.merchantId,
      endpointId,
      (items) => items.length === 2,
    );
    await page.reload();
    const deliveryLinks = page.getByRole('link', { name: /^Attempts and payload of delivery / });
    await deliveryLinks.nth(1).waitFor();
    await deliveryLinks.first().click();
    // The view follows the pending delivery until its fifth attempt fails.
    await page
      .getByRole('definition')
      .filter({ hasText: /^exhausted$/ })
      .waitFor({ timeout: 20_000 });
    const failed = await allExhausted(merchant, endpointId, 2);
    const shownId = new URL(page.url()).searchParams.get('delivery');
    const stored = failed.find((item) => item.webhookDeliveryId === shownId);
    expect(await tableRows(page, 'Attempts')).toEqual(
      stored.attempts.map((attempt: any) => [
        String(attempt.attemptNumber),
        expect.any(String),
        '500',
        expect.stringMatching(/^\d+(\.\d)? m?s$/),
        attempt.errorMessage,
      ]),
    );
    expect(stored.attempts.map((attempt: any) => attempt.errorMessage)).toEqual(
      Array(5).fill('HTTP 500 Internal Server Error'),
    );
    await screenshot(page, 'delivery-failed');

    failing.respondWith(() => ({ status: 200, body: 'ok' }));
    await page.getByRole('button', { name: 'Redeliver' }).click();
    // The redelivery's own view, which follows it until it succeeds.
    await page.getByRole('term').filter({ hasText: 'Redelivery of' }).waitFor();
    await page
      .getByRole('definition')
      .filter({ hasText: /^succeeded$/ })
      .waitFor({ timeout: 15_000 });
    const redelivery = await factsOf(page);
    expect(redelivery).toMatchObject({ Status: 'succeeded', 'Redelivery of': shownId });
    expect(new URL(page.url()).searchParams.get('delivery')).toBe(redelivery.Delivery);
    expect(await tableRows(page, 'Attempts')).toEqual([
      ['1', expect.any(String), '200', expect.any(String), '—'],
    ]);

    // A recovery starts once the endpoint shows it answers (docs/decisions/recovery-needs-an-endpoint-that-answers.md).
    await untilAnswering(merchant, endpointId);
    // The redelivery's news stays on the view it opened, and leaves with it.
    const status = page.locator('#status');
    expect(await status.innerText()).toMatch(/^(Redelivery whkdel_\w+ created|The delivery succeeded)\.$/);
    await page.getByRole('link', { name: 'Back to the endpoint' }).click();
    await heading(page, 1, 'Billing').waitFor();
    expect(await status.innerText()).toBe('');
    await page.getByRole('button', { name: 'Recover failed' }).click();
    await page
      .getByRole('dialog', { name: 'Recover failed deliveries' })
      .getByRole('button', { name: 'Start recovery' })
      .click();
    const recovery = page.getByRole('dialog', { name: 'Recovery' });
    await recovery
      .getByText('Completed: 2 failed deliveries found, 1 redelivered, 1 skipped.')
      .waitFor({ timeout: 20_000 });
    await screenshot(page, 'recovery');
    // 5 failed attempts each, the redelivery, and the recovery's one delivery of the other event.
    const received = await failing.waitFor(12, 10_000);
    const sent = received.map((request) => JSON.parse(request.rawBody.toString()).id);
    const left = failed.find((item) => item.webhookDeliveryId !== shownId);
    const recovered = (await endpointDeliveries(merchant.api, merchant.merchantId, endpointId)).find(
      (item) => item.eventId === left.eventId && item.webhookDeliveryId !== left.webhookDeliveryId,
    );
    expect(sent.slice(10)).toEqual([redelivery.Delivery, recovered?.webhookDeliveryId]);
    // The endpoint's view listed three deliveries when the recovery started; closing it draws the
    // list again, with the recovery's delivery.
    expect(await deliveryLinks.count()).toBe(3);
    await recovery.getByRole('button', { name: 'Close' }).click();
    await deliveryLinks.nth(3).waitFor();
    expect(await deliveryLinks.count()).toBe(4);
    expect(await portal.problems()).toEqual([]);
  }, 90_000);
});

/** The view's facts (its `dl`), term to text. */
function factsOf(page: Page): Promise<Record<string, string>> {
  return page
    .locator('#view dl.facts > div')
    .evaluateAll((pairs) =>
      Object.fromEntries(
        pairs.map((pair) => [
          pair.querySelector('dt')?.textContent ?? '',
          (pair.querySelector('dd')?.textContent ?? '').trim(),
        ]),
      ),
    );
}

/** The cells of a table's body rows, as text. */
function tableRows(page: Page, name: string): Promise<string[][]> {
  return page
    .getByRole('table', { name })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())),
    );
}

/** Waits until the endpoint shows a success and no failure since (the dispatcher's own write). */
async function untilAnswering(merchant: Merchant, endpointId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const page = expectOk(
          await merchant.api('GET', `/merchants/${merchant.merchantId}/webhook-endpoints`, {
            query: { limit: 100 },
          }),
        );
        const view = page.items.find((item: any) => item.webhookEndpointId === endpointId);
        return { answered: view?.lastSucceededAt !== undefined, failingSince: view?.failingSince };
      },
      { timeout: 20_000, interval: 100 },
    )
    .toEqual({ answered: true, failingSince: undefined });
}

describe('an endpoint’s view', () => {
  /**
   * Three deliveries of the shop-like merchant's endpoint created within one second, an older one
   * than its real delivery's, whose ids (the list's order) run against their sequence numbers.
   */
  async function sameSecondDeliveries(merchantId: string, endpointId: string, second: number) {
    const numbered = [102, 101, 103].map((sequence, index) => ({
      ...newDelivery({
        webhookDeliveryId: newId('whkdel'),
        webhookEndpointId: endpointId,
        merchantId,
        eventId: newId('evt'),
        eventType: 'invoices.InvoiceSent',
        data: { invoiceId: 'inv_1' },
        paused: false,
        now: new Date(second * 1000 + 100 + index * 400).toISOString(),
      }),
      status: 'exhausted' as const,
      sequence,
    }));
    for (const delivery of numbered)
      await documentClient().send(new PutCommand(buildPutNewDelivery(delivery, delivery.createdAt, [])));
  }

  it('reads "Last success" no older than a success listed under it, lists one second by sequence, and names the zone', async () => {
    const merchant = await shownMerchant('Same-second hook', '/same-second');
    const [delivery] = await endpointDeliveries(merchant.api, merchant.merchantId, merchant.endpointId);
    // The endpoint's record of its last success lags its newest by 3 minutes, as the dispatcher lets it
    // while successes keep coming (it writes the time again only 5 minutes on).
    const recorded = new Date(Date.parse(delivery.lastAttemptAt) - 3 * 60_000).toISOString();
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: endpointKeys.webhookEndpoint(merchant.merchantId, merchant.endpointId),
        UpdateExpression: 'SET lastSucceededAt = :recorded',
        ExpressionAttributeValues: { ':recorded': recorded },
      }),
    );
    await sameSecondDeliveries(
      merchant.merchantId,
      merchant.endpointId,
      Math.floor(Date.parse(delivery.createdAt) / 1000) - 60,
    );
    const { page } = await openSession(merchant, { scope: 'read' });
    const card = page.locator('section.card', { has: heading(page, 2, merchant.endpointName) });
    await card.waitFor();
    // The list of endpoints shows none of the deliveries: the record, and how far it may lag.
    expect((await card.locator('dl.facts time').first().getAttribute('datetime')) ?? '').toBe(recorded);
    expect(await card.getByText('(or up to 5 minutes later)').count()).toBe(1);
    await heading(page, 2, merchant.endpointName).getByRole('link').click();
    await page.getByRole('table', { name: 'Deliveries, newest first' }).waitFor();
    const lastSuccess = page.locator('#view dl.facts > div', { hasText: 'Last success' }).locator('time');
    await expect.poll(() => lastSuccess.getAttribute('datetime')).toBe(delivery.lastAttemptAt);
    expect((await factsOf(page))['Last success']).toMatch(/ UTC$/);
    const rows = await tableRows(page, 'Deliveries, newest first');
    expect(rows.map((row) => row[1])).toEqual([String(delivery.sequence), '103', '102', '101']);
    for (const row of rows)
      expect(row[3]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M UTC$/);
  });
});

describe("another merchant's ids in the address", () => {
  it('show nothing of theirs, whether loaded with the page or pushed into its history', async () => {
    const portal = await openSession(shop, { scope: 'manage' });
    const { page, created } = portal;
    // The service's answers to the page, each read as it comes: a body is gone once the page moves
    // on, so every view is left only once its calls are done (the list's once its rate is counted).
    const reading: Promise<string>[] = [];
    page.on('response', (response) => {
      if (!/^\/(merchants|events)\//.test(new URL(response.url()).pathname)) return;
      const text = response.text();
      // Awaited below; this only keeps a failed read from counting as unhandled meanwhile.
      text.catch(() => undefined);
      reading.push(text);
    });
    const listShown = async () => {
      await heading(page, 2, shop.endpointName).waitFor();
      await page
        .getByText(/finished deliver/)
        .first()
        .waitFor();
    };
    await listShown();
    const pagePath = `/portal/${created.portalSessionId}`;
    const places: [string, string][] = [
      [`?endpoint=${other.endpointId}`, 'Endpoint not found'],
      [`?event=${other.eventId}`, 'Event not found'],
      [
        `?endpoint=${other.endpointId}&event=${other.eventId}&delivery=${other.deliveryId}`,
        'Delivery not found',
      ],
      [
        `?endpoint=${shop.endpointId}&event=${other.eventId}&delivery=${other.deliveryId}`,
        'Delivery not found',
      ],
      [
        `?endpoint=${shop.endpointId}&event=${shop.eventId}&delivery=${other.deliveryId}`,
        'Delivery not found',
      ],
    ];
    for (const [search, title] of places) {
      // Loaded as an address: the tab's stored session opens it.
      await page.goto(`${t.runtime.baseUrl}${pagePath}${search}`);
      await heading(page, 1, title).waitFor();
      await expectNothingOfOther(page);
      // Pushed by script into the page's history from the endpoint list, then followed.
      await navLink(page, 'Endpoints').click();
      await listShown();
      await page.evaluate(
        `history.pushState(null, '', ${JSON.stringify(search)}); dispatchEvent(new PopStateEvent('popstate'))`,
      );
      await heading(page, 1, title).waitFor();
      await expectNothingOfOther(page);
    }
    // Nothing the service answered the page held anything of theirs.
    const answers = await Promise.all(reading);
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) {
      for (const value of [other.endpointName, other.endpointUrl, other.invoiceId, other.merchantId]) {
        expect(answer).not.toContain(value);
      }
    }
    expect(await portal.problems()).toEqual([]);
  });

  async function expectNothingOfOther(page: Page): Promise<void> {
    const text = await page.locator('body').innerText();
    for (const value of [other.endpointName, other.endpointUrl, other.invoiceId, other.merchantId]) {
      expect(text).not.toContain(value);
    }
    expect(await page.getByRole('table').count()).toBe(0);
  }
});

/**
 * Runs axe-core in the page (its context bypasses the page's policy) and says each serious or
 * critical violation; fails when axe-core found nothing to check, so an empty list means a check.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  if ((await page.evaluate('typeof window.axe')) === 'undefined') await page.evaluate(axe.source);
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((result) => ({
    passed: result.passes.length,
    violations: result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id + ' (' + violation.impact + '): ' + violation.help + ' at ' +
        violation.nodes.map((node) => node.target.join(' ')).join(', ')),
  }))`)) as { passed: number; violations: string[] };
  expect(result.passed, 'axe-core passed no rule: it checked nothing').toBeGreaterThan(10);
  return result.violations;
}

describe('accessibility', () => {
  it('has no serious or critical axe-core violation on the main views, a dialog and a link problem', async () => {
    const portal = await openSession(shop, { scope: 'manage' }, { bypassCSP: true });
    const { page } = portal;
    const found: Record<string, string[]> = {};
    const check = async (view: string) => {
      found[view] = await seriousViolations(page);
      await screenshot(page, view);
    };
    await heading(page, 2, shop.endpointName).waitFor();
    await page
      .getByText(/finished deliver/)
      .first()
      .waitFor();
    await check('endpoints');
    await heading(page, 2, shop.endpointName).getByRole('link').click();
    await page.getByRole('table', { name: 'Deliveries, newest first' }).waitFor();
    await page
      .getByText(/finished deliver/)
      .first()
      .waitFor();
    await check('endpoint');
    await page.getByRole('link', { name: `Attempts and payload of delivery ${shop.deliveryId}` }).click();
    await page.getByRole('table', { name: 'Attempts' }).waitFor();
    await check('delivery');
    await navLink(page, 'Events').click();
    await page.getByRole('table', { name: 'Events, newest first' }).waitFor();
    await check('events');
    await page.getByRole('link', { name: `invoices.InvoiceSent ${shop.eventId}` }).click();
    await page.getByRole('table', { name: 'Deliveries of this event' }).waitFor();
    await check('event');
    await navLink(page, 'Endpoints').click();
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    await page.getByRole('dialog', { name: 'Add an endpoint' }).waitFor();
    await check('dialog');
    const problem = await openPortal(`/portal/${unknownSessionId}#not-a-link`, { bypassCSP: true });
    await heading(problem.page, 1, 'This link is not valid').waitFor();
    found['link problem'] = await seriousViolations(problem.page);
    await screenshot(problem.page, 'link-problem');
    expect(found).toEqual({
      endpoints: [],
      endpoint: [],
      delivery: [],
      events: [],
      event: [],
      dialog: [],
      'link problem': [],
    });
  });
});

interface Focused {
  readonly tag: string;
  readonly text: string;
  readonly label: string;
  /** It has an outline or a box shadow a sighted keyboard user sees. */
  readonly shown: boolean;
}

/** The focused element; undefined when focus is on the body (nowhere). */
async function focused(page: Page): Promise<Focused | undefined> {
  return (
    ((await page.evaluate(`(() => {
      const element = document.activeElement;
      if (element === null || element === document.body) return null;
      const style = getComputedStyle(element);
      return {
        tag: element.tagName,
        text: (element.innerText ?? '').trim(),
        label: element.getAttribute('aria-label') ?? '',
        shown: (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none',
      };
    })()`)) as Focused | null) ?? undefined
  );
}

describe('the portal by keyboard alone', () => {
  it('reaches an endpoint, a delivery and back, and opens and closes dialogs, with focus always shown and given back', async () => {
    const portal = await openSession(shop, { scope: 'manage' });
    const { page } = portal;
    await heading(page, 2, shop.endpointName).waitFor();
    const path: string[] = [];
    /** Presses `key` until the focused element matches, checking at each step that focus shows. */
    const moveTo = async (matches: (element: Focused) => boolean, key = 'Tab') => {
      for (let press = 0; press < 40; press += 1) {
        await page.keyboard.press(key);
        const element = await focused(page);
        path.push(`${key} → ${element?.tag} ${element?.label || element?.text}`);
        expect(element?.shown, path.join('\n')).toBe(true);
        if (element !== undefined && matches(element)) return;
      }
      throw new Error(`Focus never got there:\n${path.join('\n')}`);
    };
    const focusIs = async (expected: Partial<Focused>) =>
      expect(await focused(page)).toMatchObject({ ...expected, shown: true });

    await moveTo((element) => element.tag === 'A' && element.text === shop.endpointName);
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: 'Deliveries, newest first' }).waitFor();
    await focusIs({ tag: 'H1', text: shop.endpointName });

    await moveTo((element) => element.label === `Attempts and payload of delivery ${shop.deliveryId}`);
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: 'Attempts' }).waitFor();
    await focusIs({ tag: 'H1', text: 'Delivery of invoices.InvoiceSent' });

    await moveTo((element) => element.text === 'Back to the endpoint', 'Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: 'Deliveries, newest first' }).waitFor();
    await focusIs({ tag: 'H1', text: shop.endpointName });

    // Enter opens a dialog, Escape closes it; focus goes back to the button that opened it.
    await moveTo((element) => element.tag === 'BUTTON' && element.text === 'Edit');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: `Edit ${shop.endpointName}` }).waitFor();
    await focusIs({ tag: 'INPUT' });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await focusIs({ tag: 'BUTTON', text: 'Edit' });

    // Space opens one, and Space on its Cancel closes it.
    await moveTo((element) => element.tag === 'BUTTON' && element.text === 'Send test');
    await page.keyboard.press('Space');
    await page.getByRole('dialog', { name: 'Send a test delivery' }).waitFor();
    await focusIs({ tag: 'SELECT' });
    await moveTo((element) => element.text === 'Cancel');
    await page.keyboard.press('Space');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await focusIs({ tag: 'BUTTON', text: 'Send test' });

    // The close event comes a task after the browser gave focus back: focus moved on in between
    // (Escape, then Tab at once) stays where the merchant put it.
    await moveTo((element) => element.tag === 'BUTTON' && element.text === 'Edit', 'Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: `Edit ${shop.endpointName}` }).waitFor();
    const focusAfterClose = await page.evaluate(`new Promise((resolve) => {
      const dialog = document.querySelector('dialog');
      dialog.addEventListener('close', () => resolve(document.activeElement.innerText.trim()));
      dialog.close();
      [...document.querySelectorAll('button')].find((b) => b.innerText.trim() === 'Send test').focus();
    })`);
    expect(focusAfterClose).toBe('Send test');
    expect(await page.locator('dialog').count()).toBe(0);
    expect(await portal.problems()).toEqual([]);
  });
});
