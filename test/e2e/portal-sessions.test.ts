import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newPortalToken, PortalTokenKind } from '../../functions/domain/portal-session';
import { createKey, revokeKey } from '../../tools/admin/operations';
import { e2eFile, merchantId, t } from '../support/e2e-test';
import { apiClient, newKey } from '../support/local-runtime';
import { mailSettled } from '../support/mail-settled';
import {
  createPortalSession,
  expirePortalSession,
  linkTokenOf,
  openPortalSession,
} from '../support/portal-sessions';

// The authorizer keeps its answers the default 60 s: a revoked session must end anyway.
e2eFile({ WEBHOOK_ALLOW_PRIVATE_TARGETS: true });

const sessions = () => `/merchants/${merchantId}/portal-sessions`;
const endpoints = () => `/merchants/${merchantId}/webhook-endpoints`;
const exchange = (token: string) =>
  t.api('POST', '/portal/exchange', { authorization: null, body: { token } });
const listEndpoints = (bearer: string) => t.api('GET', endpoints(), { authorization: bearer });

function expectError(result: { status: number; body: any }, status: number, code: string) {
  expect({ status: result.status, code: result.body?.error?.code }).toEqual({ status, code });
}

describe('creating a portal session', () => {
  it('answers a one-hour link to the portal page, with its token only in the fragment', async () => {
    const before = Date.now();
    const created = await createPortalSession(t.api, merchantId, { scope: 'read' });
    const url = new URL(created.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${t.runtime.baseUrl}/portal/${created.portalSessionId}`);
    expect(url.search).toBe('');
    expect(linkTokenOf(created.url)).toMatch(/^portallink_sbx[0-9a-z]{26}_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ merchantId, scope: 'read', allowedOrigins: [] });
    expect(created.exchangedAt).toBeUndefined();
    const lifetime = Date.parse(created.expiresAt) - Date.parse(created.createdAt);
    expect(lifetime).toBe(3_600_000);
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('keeps only hashes in the table, and replays the same link for the same Idempotency-Key', async () => {
    const idempotencyKey = newKey();
    const body = { scope: 'manage', expiresInSeconds: 600, allowedOrigins: ['https://app.example.com'] };
    const first = await t.api('POST', sessions(), { body, idempotencyKey });
    const again = await t.api('POST', sessions(), { body, idempotencyKey });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const secret = linkTokenOf(first.body.url).slice(-43);
    expect(JSON.stringify(await t.scanTable())).not.toContain(secret);
  });

  it.each([
    ['no scope', {}],
    ['an unknown scope', { scope: 'admin' }],
    ['a lifetime under a minute', { scope: 'read', expiresInSeconds: 59 }],
    ['a lifetime over a day', { scope: 'read', expiresInSeconds: 86_401 }],
    ['an origin with a path', { scope: 'read', allowedOrigins: ['https://app.example.com/embed'] }],
    [
      'a plain-http origin that is not this machine',
      { scope: 'read', allowedOrigins: ['http://app.example.com'] },
    ],
    ['a wildcard origin', { scope: 'read', allowedOrigins: ['https://*.example.com'] }],
    ['an origin with an upper-case host', { scope: 'read', allowedOrigins: ['https://App.example.com'] }],
    ['a port past 65535', { scope: 'read', allowedOrigins: ['https://app.example.com:65536'] }],
    [
      'a repeated origin',
      { scope: 'read', allowedOrigins: ['https://a.example.com', 'https://a.example.com'] },
    ],
    ['an empty origin list', { scope: 'read', allowedOrigins: [] }],
    [
      'eleven origins',
      { scope: 'read', allowedOrigins: Array.from({ length: 11 }, (_, i) => `https://a${i}.example.com`) },
    ],
  ])('refuses %s with 400 and stores nothing', async (_name, body) => {
    await mailSettled(t);
    const before = await t.scanTable();
    const result = await t.api('POST', sessions(), { body, idempotencyKey: newKey() });
    expectError(result, 400, 'validation_error');
    expect(await t.scanTable()).toEqual(before);
  });

  it('accepts the bounds, and an http origin on this machine for a page under development', async () => {
    for (const expiresInSeconds of [60, 86_400]) {
      const created = await createPortalSession(t.api, merchantId, { scope: 'read', expiresInSeconds });
      expect(Date.parse(created.expiresAt) - Date.parse(created.createdAt)).toBe(expiresInSeconds * 1000);
    }
    const origins = ['http://localhost:5173', 'https://app.example.com:8443', 'https://b.example.com:443'];
    const created = await createPortalSession(t.api, merchantId, { scope: 'read', allowedOrigins: origins });
    // A default port is dropped, as a browser writes the origin it matches.
    expect(created.allowedOrigins).toEqual([
      'http://localhost:5173',
      'https://app.example.com:8443',
      'https://b.example.com',
    ]);
  });
});

describe('opening a portal link', () => {
  it('opens once: a second exchange of the same link is 410 portal_link_used', async () => {
    const opened = await openPortalSession(t.api, merchantId, { scope: 'read' });
    expect(opened.sessionToken).toMatch(/^portal_sbx[0-9a-z]{26}_[A-Za-z0-9_-]{43}$/);
    expectError(await exchange(opened.linkToken), 410, 'portal_link_used');
    expect((await listEndpoints(opened.bearer)).status).toBe(200);
  });

  it('lets exactly one of two simultaneous exchanges through', async () => {
    const created = await createPortalSession(t.api, merchantId, { scope: 'read' });
    const results = await Promise.all([1, 2, 3].map(() => exchange(linkTokenOf(created.url))));
    expect(results.map((result) => result.status).sort()).toEqual([200, 410, 410]);
  });

  it('answers 401 to a token that is no link: a wrong secret, a session token, a link of production', async () => {
    const created = await createPortalSession(t.api, merchantId, { scope: 'read' });
    const link = linkTokenOf(created.url);
    const wrongSecret = `${link.slice(0, -43)}${randomBytes(32).toString('base64url')}`;
    const production = newPortalToken(
      PortalTokenKind.link,
      'production',
      created.portalSessionId,
      randomBytes,
    );
    const sessionKind = newPortalToken(
      PortalTokenKind.session,
      'sandbox',
      created.portalSessionId,
      randomBytes,
    );
    for (const token of [wrongSecret, production, sessionKind, 'portallink_sbx']) {
      expectError(await exchange(token), 401, 'unauthorized');
    }
    // The real link still opens: the refusals spent nothing.
    expect((await exchange(link)).status).toBe(200);
  });

  it('answers 400 to a body without a token', async () => {
    expectError(
      await t.api('POST', '/portal/exchange', { authorization: null, body: {} }),
      400,
      'validation_error',
    );
  });

  it('answers 410 portal_session_expired to a link past its expiry', async () => {
    const created = await createPortalSession(t.api, merchantId, { scope: 'read' });
    await expirePortalSession(created.portalSessionId);
    expectError(await exchange(linkTokenOf(created.url)), 410, 'portal_session_expired');
  });
});

describe("a portal session's bearer", () => {
  it('reads with read scope, and gets 403 on a change and on every route outside the portal', async () => {
    const { bearer } = await openPortalSession(t.api, merchantId, { scope: 'read' });
    expect((await listEndpoints(bearer)).status).toBe(200);
    const create = await t.api('POST', endpoints(), {
      authorization: bearer,
      body: { url: 'https://hooks.example.com/a', eventTypes: ['invoices.InvoiceSent'] },
      idempotencyKey: newKey(),
    });
    expectError(create, 403, 'forbidden');
    const invoices = await t.api('GET', '/invoices', { authorization: bearer, query: { merchantId } });
    expectError(invoices, 403, 'forbidden');
    const mint = await t.api('POST', sessions(), {
      authorization: bearer,
      body: { scope: 'manage' },
      idempotencyKey: newKey(),
    });
    expectError(mint, 403, 'forbidden');
  });

  it('changes endpoints with manage scope, but still mints no session and reads no invoice', async () => {
    const { bearer } = await openPortalSession(t.api, merchantId, { scope: 'manage' });
    const create = await t.api('POST', endpoints(), {
      authorization: bearer,
      body: { url: 'https://hooks.example.com/b', eventTypes: ['invoices.InvoiceSent'] },
      idempotencyKey: newKey(),
    });
    expect(create.status).toBe(201);
    const mint = await t.api('POST', sessions(), {
      authorization: bearer,
      body: { scope: 'read' },
      idempotencyKey: newKey(),
    });
    expectError(mint, 403, 'forbidden');
    expectError(
      await t.api('GET', '/payments', { authorization: bearer, query: { merchantId } }),
      403,
      'forbidden',
    );
  });

  it("gets 403 naming another merchant, and never sees the other merchant's endpoints", async () => {
    const other = await t.anotherMerchant();
    const { bearer } = await openPortalSession(t.api, merchantId, { scope: 'manage' });
    const foreign = await t.api('GET', `/merchants/${other.merchantId}/webhook-endpoints`, {
      authorization: bearer,
    });
    expectError(foreign, 403, 'forbidden');
  });

  it('ends at once when revoked, though the authorizer still holds its answer', async () => {
    const { created, bearer } = await openPortalSession(t.api, merchantId, { scope: 'read' });
    expect((await listEndpoints(bearer)).status).toBe(200);
    const revoked = await t.api('DELETE', `${sessions()}/${created.portalSessionId}`, {
      idempotencyKey: newKey(),
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expectError(await listEndpoints(bearer), 401, 'unauthorized');
    // Revoking again changes nothing.
    const again = await t.api('DELETE', `${sessions()}/${created.portalSessionId}`, {
      idempotencyKey: newKey(),
    });
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
  });

  it('ends at its expiry, though the authorizer still holds its answer', async () => {
    const { created, bearer } = await openPortalSession(t.api, merchantId, { scope: 'read' });
    expect((await listEndpoints(bearer)).status).toBe(200);
    await expirePortalSession(created.portalSessionId);
    expectError(await listEndpoints(bearer), 401, 'unauthorized');
  });

  it('ends with the API key that made it; that key’s unopened links are 410 portal_session_revoked', async () => {
    const key = await createKey(merchantId, 'sandbox');
    const api = apiClient(t.runtime.baseUrl, key.apiKey);
    const opened = await openPortalSession(api, merchantId, { scope: 'read' });
    const unopened = await createPortalSession(api, merchantId, { scope: 'read' });
    expect((await listEndpoints(opened.bearer)).status).toBe(200);
    await revokeKey(key.keyPrefix);
    expectError(await listEndpoints(opened.bearer), 401, 'unauthorized');
    expectError(await exchange(linkTokenOf(unopened.url)), 410, 'portal_session_revoked');
  });
});

describe('revoking a portal session', () => {
  it("answers 404 to another merchant's session and leaves it working", async () => {
    const other = await t.anotherMerchant();
    const { created, bearer } = await openPortalSession(other.api, other.merchantId, { scope: 'read' });
    const result = await t.api('DELETE', `${sessions()}/${created.portalSessionId}`, {
      idempotencyKey: newKey(),
    });
    expectError(result, 404, 'not_found');
    const theirs = await t.api('GET', `/merchants/${other.merchantId}/webhook-endpoints`, {
      authorization: bearer,
    });
    expect(theirs.status).toBe(200);
  });

  it('makes an unopened link answer 410 portal_session_revoked', async () => {
    const created = await createPortalSession(t.api, merchantId, { scope: 'manage' });
    await t.api('DELETE', `${sessions()}/${created.portalSessionId}`, { idempotencyKey: newKey() });
    expectError(await exchange(linkTokenOf(created.url)), 410, 'portal_session_revoked');
  });
});

describe('the portal page of a session', () => {
  const page = (portalSessionId: string) => fetch(`${t.runtime.baseUrl}/portal/${portalSessionId}`);
  const frameAncestors = (response: Response) =>
    /frame-ancestors ([^;]+)/.exec(response.headers.get('content-security-policy') ?? '')?.[1];

  it('may be framed by exactly the origins the session allows, while it lives', async () => {
    const allowedOrigins = ['https://app.example.com', 'http://localhost:5173'];
    const created = await createPortalSession(t.api, merchantId, { scope: 'read', allowedOrigins });
    const live = await page(created.portalSessionId);
    expect(live.status).toBe(200);
    expect(frameAncestors(live)).toBe('https://app.example.com http://localhost:5173');
    expect(live.headers.get('x-frame-options')).toBeNull();
    await t.api('DELETE', `${sessions()}/${created.portalSessionId}`, { idempotencyKey: newKey() });
    const revoked = await page(created.portalSessionId);
    expect(frameAncestors(revoked)).toBe("'none'");
    expect(revoked.headers.get('x-frame-options')).toBe('DENY');
  });

  it('answers an id longer than the 256 characters its path parameter declares 404 not_found', async () => {
    const response = await page(`psn_${'0'.repeat(253)}`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expect((await page(`psn_${'0'.repeat(252)}`)).status).toBe(200);
  });

  it('is framed by nobody for a session without origins, an expired one and an unknown id', async () => {
    const plain = await createPortalSession(t.api, merchantId, { scope: 'read' });
    const expiring = await createPortalSession(t.api, merchantId, {
      scope: 'read',
      allowedOrigins: ['https://app.example.com'],
    });
    await expirePortalSession(expiring.portalSessionId);
    const unknown = `psn_${'0'.repeat(26)}`;
    for (const id of [plain.portalSessionId, expiring.portalSessionId, unknown]) {
      const response = await page(id);
      expect(response.status, id).toBe(200);
      expect(frameAncestors(response), id).toBe("'none'");
      expect(response.headers.get('x-frame-options'), id).toBe('DENY');
    }
  });
});
