import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../functions/domain/api-key';
import { isPublic } from '../../functions/route-definition';
import { routeList, routesOfStage } from '../../functions/routes';
import { createKey, createMerchant, revokeKey } from '../../tools/admin/operations';
import { e2eTest } from '../support/e2e-test';
import type { HttpsReceiver } from '../support/https-receiver';
import {
  type ApiResult,
  apiClient,
  newKey,
  type RequestOptions,
  type TestRuntime,
} from '../support/local-runtime';
import { mailSettled } from '../support/mail-settled';
import { expirePortalSession, type OpenedPortalSession, openPortalSession } from '../support/portal-sessions';
import { type RecordedRequest, recordKeyedRequests, resourceIdPattern } from '../support/recorded-requests';

/*
 * Every keyed route of the sandbox stage, called as its happy path calls it, then again under every
 * credential that must not pass and for every merchant it must not serve.
 */

const test = e2eTest({ WEBHOOK_ALLOW_PRIVATE_TARGETS: true, AUTH_CACHE_SECONDS: 0 });
let receiver: HttpsReceiver, t: TestRuntime, merchantId: string;
let other: { merchantId: string; apiKey: string };
let recorded: Map<string, RecordedRequest>;
/** Every id the merchant's own answers showed: none may appear in an answer to anyone else. */
let ownIds: Set<string>;

test.beforeAll(async ({ t: runtime, receiver: started }) => {
  // No authorizer cache: a revoked key is refused from its very first request.
  [t, merchantId, receiver] = [runtime, runtime.merchantId, started];
  ({ requests: recorded, shownIds: ownIds } = await recordKeyedRequests(t, receiver));
  const merchant = await createMerchant('Another merchant');
  other = {
    merchantId: merchant.merchantId,
    apiKey: (await createKey(merchant.merchantId, 'sandbox')).apiKey,
  };
}, 180_000);

/** The recorded request again, with a fresh Idempotency-Key and the given changes. */
function again(request: RecordedRequest, change: { authorization?: string | null; merchantId?: string }) {
  const swap = <T>(value: T): T =>
    change.merchantId === undefined
      ? value
      : JSON.parse(JSON.stringify(value).replaceAll(merchantId, change.merchantId));
  const options: RequestOptions = {
    ...(request.options.query === undefined ? {} : { query: swap(request.options.query) }),
    ...(request.options.body === undefined ? {} : { body: swap(request.options.body) }),
    ...(request.options.idempotencyKey === undefined ? {} : { idempotencyKey: newKey() }),
    ...(change.authorization === undefined ? {} : { authorization: change.authorization }),
  };
  return t.api(request.method, swap(request.path), options);
}

/** The answer names no id of the merchant that the request did not name itself. */
function expectNoOwnData(result: ApiResult, request: string) {
  const named = new Set(request.match(resourceIdPattern) ?? []);
  const shown = (JSON.stringify(result.body ?? '').match(resourceIdPattern) ?? []).filter(
    (id) => !named.has(id),
  );
  expect(shown.filter((id) => ownIds.has(id))).toEqual([]);
  expect(JSON.stringify(result.body ?? '')).not.toContain(merchantId);
}

function expectError(result: ApiResult, status: number, code: string, label: string) {
  expect({ label, status: result.status, code: result.body?.error?.code }).toEqual({ label, status, code });
}

describe('authorization matrix of every keyed route', () => {
  it('records every keyed route of the stage', () => {
    const keyed = routesOfStage(routeList, 'sandbox').filter((route) => !isPublic(route));
    expect([...recorded.keys()].sort()).toEqual(keyed.map((route) => route.operationId).sort());
  });

  it('answers 401 to every credential that is not a live key of this stage, and changes nothing', async () => {
    const revoked = await createKey(merchantId, 'sandbox');
    await revokeKey(revoked.keyPrefix);
    const expired = await createKey(merchantId, 'sandbox', {
      expiresInSeconds: 60,
      now: new Date(Date.now() - 120_000),
    });
    const production = await createKey(merchantId, 'production');
    const unknown = generateApiKey('sandbox', (size) => randomBytes(size));
    const wrongSecret = `${t.runtime.apiKey.slice(0, 'merchant_sbx0123456789'.length)}_${randomBytes(32).toString('base64url')}`;
    const credentials: Record<string, string | null> = {
      'no key': null,
      'another scheme': `Basic ${t.runtime.apiKey}`,
      'a malformed key': 'Bearer not-a-key',
      'a key never issued': `Bearer ${unknown.apiKey}`,
      'a wrong secret': `Bearer ${wrongSecret}`,
      'a revoked key': `Bearer ${revoked.apiKey}`,
      'an expired key': `Bearer ${expired.apiKey}`,
      'a key of another stage': `Bearer ${production.apiKey}`,
    };
    await mailSettled(t);
    const before = await t.scanTable();
    for (const request of recorded.values()) {
      for (const [name, authorization] of Object.entries(credentials)) {
        const result = await again(request, { authorization });
        expectError(result, 401, 'unauthorized', `${request.route.operationId} with ${name}`);
        expectNoOwnData(result, '');
      }
    }
    expect(await t.scanTable()).toEqual(before);
  });

  it('answers 403 to another merchant’s key, and to the own key naming another merchant', async () => {
    await mailSettled(t);
    const before = await t.scanTable();
    for (const request of recorded.values()) {
      const label = request.route.operationId;
      const othersKey = await again(request, { authorization: `Bearer ${other.apiKey}` });
      expectError(othersKey, 403, 'forbidden', `${label} with another merchant's key`);
      expectNoOwnData(othersKey, request.path);
      const foreignScope = await again(request, { merchantId: other.merchantId });
      expectError(foreignScope, 403, 'forbidden', `${label} naming another merchant`);
    }
    expect(await t.scanTable()).toEqual(before);
  });

  it('finds none of the merchant’s resources for another merchant in its own scope', async () => {
    for (const request of recorded.values()) {
      const label = `${request.route.operationId} by another merchant`;
      const result = await again(request, {
        authorization: `Bearer ${other.apiKey}`,
        merchantId: other.merchantId,
      });
      // A resource of the merchant in the path is not found; one in the body is not a valid id.
      const resourceParams = (request.route.path.match(/\{(\w+)\}/g) ?? []).filter(
        (param) => param !== '{merchantId}',
      );
      if (resourceParams.length > 0) expectError(result, 404, 'not_found', label);
      else expect(result.status, label).not.toBe(500);
      expectNoOwnData(result, JSON.stringify([request.path, request.options.body ?? null]));
    }
  });
});

describe('authorization matrix of every keyed route under a portal session', () => {
  let read: OpenedPortalSession, manage: OpenedPortalSession;

  test.beforeAll(async () => {
    [read, manage] = [
      await openPortalSession(t.api, merchantId, { scope: 'read' }),
      await openPortalSession(t.api, merchantId, { scope: 'manage' }),
    ];
  });

  it('answers 403 outside the portal to both scopes, and to a read session on every change; changes nothing', async () => {
    await mailSettled(t);
    const before = await t.scanTable();
    for (const request of recorded.values()) {
      const { operationId, portal } = request.route;
      if (portal !== 'read') {
        expectError(
          await again(request, { authorization: read.bearer }),
          403,
          'forbidden',
          `${operationId}, read`,
        );
      }
      if (portal === undefined) {
        const result = await again(request, { authorization: manage.bearer });
        expectError(result, 403, 'forbidden', `${operationId}, manage`);
        expectNoOwnData(result, '');
      }
    }
    expect(await t.scanTable()).toEqual(before);
  });

  it('lets both scopes read what the portal reads, and a manage session make its changes', async () => {
    const portalRoutes = [...recorded.values()].filter((request) => request.route.portal !== undefined);
    expect(portalRoutes.length).toBeGreaterThanOrEqual(13);
    for (const request of portalRoutes) {
      const sessions = request.route.portal === 'read' ? [read, manage] : [manage];
      for (const session of sessions) {
        const result = await again(request, { authorization: session.bearer });
        // A change replayed on a resource it already changed or deleted may answer 404 or 409.
        expect([401, 403], `${request.route.operationId}: ${result.status}`).not.toContain(result.status);
        // A read of the endpoint the round trips deleted at their end is a 404, as for its key.
        if (request.route.portal === 'read')
          expect([200, 404], request.route.operationId).toContain(result.status);
      }
    }
  });

  it("answers 403 to another merchant's manage session on every keyed route, with none of the merchant's data", async () => {
    const merchant = await createMerchant('A third merchant');
    const key = await createKey(merchant.merchantId, 'sandbox');
    const theirs = await openPortalSession(apiClient(t.runtime.baseUrl, key.apiKey), merchant.merchantId);
    for (const request of recorded.values()) {
      const result = await again(request, { authorization: theirs.bearer });
      expectError(result, 403, 'forbidden', `${request.route.operationId} with another merchant's session`);
      expectNoOwnData(result, request.path);
    }
  });

  it('answers 401 on every portal route to a session revoked, expired, or made by a key since revoked', async () => {
    const key = await createKey(merchantId, 'sandbox');
    const sessions = {
      revoked: await openPortalSession(t.api, merchantId),
      expired: await openPortalSession(t.api, merchantId),
      'of a revoked key': await openPortalSession(apiClient(t.runtime.baseUrl, key.apiKey), merchantId),
    };
    const revoke = await t.api(
      'DELETE',
      `/merchants/${merchantId}/portal-sessions/${sessions.revoked.created.portalSessionId}`,
      {
        idempotencyKey: newKey(),
      },
    );
    expect(revoke.status).toBe(200);
    await expirePortalSession(sessions.expired.created.portalSessionId);
    await revokeKey(key.keyPrefix);
    for (const request of recorded.values()) {
      if (request.route.portal === undefined) continue;
      for (const [name, session] of Object.entries(sessions)) {
        const result = await again(request, { authorization: session.bearer });
        expectError(result, 401, 'unauthorized', `${request.route.operationId} with a session ${name}`);
        expectNoOwnData(result, '');
      }
    }
  });
});
