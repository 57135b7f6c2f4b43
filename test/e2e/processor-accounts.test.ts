import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EntityType } from '../../functions/store/keys';
import { type ApiClient, newKey, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import {
  activeStripeAccount,
  stripeAccount,
  stripeAccountLink,
  stripeError,
  testStripeSecretKey,
  testStripeWebhookSecret,
} from '../support/stripe-fixtures';
import { type StripeRecordingServer, startStripeRecordingServer } from '../support/stripe-recording-server';

let stripe: StripeRecordingServer;
let production: TestRuntime;

beforeAll(async () => {
  stripe = await startStripeRecordingServer();
  // The local runtime as production, its Stripe SDK pointed at the recording server.
  production = await startTestRuntime({
    STAGE: 'production',
    STRIPE_SECRET_KEY: testStripeSecretKey,
    STRIPE_WEBHOOK_SECRET: testStripeWebhookSecret,
    STRIPE_API_BASE_URL: stripe.baseUrl,
    // A hung Stripe answer fails in 2 tries of this; the recording server answers in far less.
    STRIPE_TIMEOUT_MS: 1500,
  });
}, 60_000);
afterAll(async () => {
  await production?.stop();
  await stripe?.close();
});
beforeEach(() => stripe.reset());

const urls = {
  returnUrl: 'https://dashboard.example.com/settings/payments',
  refreshUrl: 'https://dashboard.example.com/settings/payments/reconnect',
};
const linkExpiresAt = 1_790_000_300;
const onboardingUrl = 'https://connect.stripe.com/setup/s/acct_1Recorded/recordedlinktoken';

/** A merchant of its own, so each test reads only its own account. */
async function merchantOf(t: TestRuntime): Promise<{ merchantId: string; api: ApiClient }> {
  return t.anotherMerchant();
}

const link = (api: ApiClient, merchantId: string, key = newKey(), body: unknown = urls) =>
  api('POST', `/merchants/${merchantId}/processor-account`, { body, idempotencyKey: key });
const read = (api: ApiClient, merchantId: string) => api('GET', `/merchants/${merchantId}/processor-account`);

async function accountItems(t: TestRuntime, merchantId: string) {
  return (await t.scanTable()).filter(
    (item) => item.entityType === EntityType.processorAccount && item.merchantId === merchantId,
  );
}

function scriptNewAccount(accountId: string) {
  stripe.answer('POST', '/v1/accounts', { body: stripeAccount(accountId) });
  stripe.answer('POST', '/v1/account_links', { body: stripeAccountLink(onboardingUrl, linkExpiresAt) });
}

describe('linking a Stripe connected account (production)', () => {
  it('opens the account and answers its onboarding link, sending Stripe exactly these parameters', async () => {
    const { merchantId, api } = await merchantOf(production);
    scriptNewAccount('acct_1Recorded');
    const result = await link(api, merchantId);
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      merchantId,
      processor: 'stripe',
      processorAccountId: 'acct_1Recorded',
      state: 'pending',
      createdAt: expect.any(String),
      updatedAt: result.body.createdAt,
      onboardingUrl,
      onboardingUrlExpiresAt: new Date(linkExpiresAt * 1000).toISOString(),
    });
    const [created, linked, ...more] = stripe.requests;
    expect(more).toEqual([]);
    expect({ method: created?.method, path: created?.path, form: created?.form }).toEqual({
      method: 'POST',
      path: '/v1/accounts',
      form: { 'controller[stripe_dashboard][type]': 'full', 'metadata[merchantId]': merchantId },
    });
    expect({ method: linked?.method, path: linked?.path, form: linked?.form }).toEqual({
      method: 'POST',
      path: '/v1/account_links',
      form: {
        account: 'acct_1Recorded',
        type: 'account_onboarding',
        return_url: urls.returnUrl,
        refresh_url: urls.refreshUrl,
      },
    });
    // The platform's own calls: on no connected account's behalf, under the platform key.
    for (const request of [created, linked]) {
      expect(request?.headers['stripe-account']).toBeUndefined();
      expect(request?.headers.authorization).toBe(`Bearer ${testStripeSecretKey}`);
    }
    const keys = [created?.headers['idempotency-key'], linked?.headers['idempotency-key']];
    expect(keys[0]).toMatch(/^merchant-payments-[0-9a-f]{64}-account$/);
    expect(keys[1]).toBe(String(keys[0]).replace(/-account$/, '-link'));
    expect(await accountItems(production, merchantId)).toHaveLength(1);
    expect(await read(api, merchantId)).toMatchObject({
      status: 200,
      body: { merchantId, processor: 'stripe', processorAccountId: 'acct_1Recorded', state: 'pending' },
    });
  });

  it('replays the same request with the same link and calls Stripe no more', async () => {
    const { merchantId, api } = await merchantOf(production);
    scriptNewAccount('acct_1Replayed');
    const key = newKey();
    const first = await link(api, merchantId, key);
    const calls = stripe.requests.length;
    const again = await link(api, merchantId, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(stripe.requests).toHaveLength(calls);
  });

  it('gives two merchants’ requests under one Idempotency-Key two Stripe idempotency keys', async () => {
    const first = await merchantOf(production);
    const second = await merchantOf(production);
    scriptNewAccount('acct_1Either');
    const key = newKey();
    await link(first.api, first.merchantId, key);
    await link(second.api, second.merchantId, key);
    const accountKeys = stripe.requestsTo('POST', '/v1/accounts').map((r) => r.headers['idempotency-key']);
    expect(new Set(accountKeys).size).toBe(2);
  });

  it('reuses the linked account for a later request, with a fresh link and no new account', async () => {
    const { merchantId, api } = await merchantOf(production);
    scriptNewAccount('acct_1Reused');
    const first = await link(api, merchantId);
    stripe.reset();
    stripe.answer('POST', '/v1/account_links', {
      body: stripeAccountLink(`${onboardingUrl}-again`, linkExpiresAt + 60),
    });
    const again = await link(api, merchantId);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({
      processorAccountId: 'acct_1Reused',
      createdAt: first.body.createdAt,
      onboardingUrl: `${onboardingUrl}-again`,
    });
    expect(stripe.requests.map((request) => request.path)).toEqual(['/v1/account_links']);
    expect(stripe.requests[0]?.form.account).toBe('acct_1Reused');
    expect(await accountItems(production, merchantId)).toHaveLength(1);
  });

  it('answers 404 before any account is linked', async () => {
    const { merchantId, api } = await merchantOf(production);
    const result = await read(api, merchantId);
    expect({ status: result.status, code: result.body.error.code }).toEqual({
      status: 404,
      code: 'not_found',
    });
  });

  it('answers 400 to bad input naming each field, calling Stripe for nothing and changing nothing', async () => {
    const { merchantId, api } = await merchantOf(production);
    const before = await production.scanTable();
    const result = await link(api, merchantId, newKey(), {
      returnUrl: 'http://dashboard.example.com/back',
      refreshUrl: 7,
      color: 'blue',
    });
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe('validation_error');
    expect(result.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual([
      'color',
      'refreshUrl',
      'returnUrl',
    ]);
    expect(stripe.requests).toEqual([]);
    expect(await production.scanTable()).toEqual(before);
  });

  it.each([
    [
      'a 5xx, after the SDK retried it once',
      { status: 500, body: stripeError('api_error', 'Stripe failed') },
      2,
    ],
    [
      'a 429, which the SDK does not retry',
      { status: 429, body: stripeError('rate_limit_error', 'Slow down') },
      1,
    ],
    ['no answer within the timeout, after one retry', { hang: true }, 2],
  ] as const)(
    'answers 503 to %s, records nothing, and the same request then links once',
    async (_, failure, tries) => {
      const { merchantId, api } = await merchantOf(production);
      stripe.answer('POST', '/v1/accounts', ...Array<typeof failure>(tries).fill(failure), {
        body: stripeAccount('acct_1AfterFault'),
      });
      stripe.answer('POST', '/v1/account_links', { body: stripeAccountLink(onboardingUrl, linkExpiresAt) });
      const key = newKey();
      const failed = await link(api, merchantId, key);
      expect({ status: failed.status, code: failed.body.error.code }).toEqual({
        status: 503,
        code: 'service_unavailable',
      });
      expect(failed.body.error.message).toMatch(/try again/i);
      expect(failed.headers.get('retry-after')).toBe('5');
      expect(stripe.requestsTo('POST', '/v1/account_links')).toEqual([]);
      expect(await accountItems(production, merchantId)).toEqual([]);

      const retried = await link(api, merchantId, key);
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      expect(retried.body.processorAccountId).toBe('acct_1AfterFault');
      // Every try carried the same key, so Stripe opens at most one account for the request.
      const accountKeys = stripe.requestsTo('POST', '/v1/accounts').map((r) => r.headers['idempotency-key']);
      expect(accountKeys).toHaveLength(tries + 1);
      expect(new Set(accountKeys).size).toBe(1);
      expect(await accountItems(production, merchantId)).toHaveLength(1);
    },
  );

  it('opens one account for concurrent requests under different keys; a loser is told to retry', async () => {
    const { merchantId, api } = await merchantOf(production);
    scriptNewAccount('acct_1Concurrent');
    const results = await Promise.all([link(api, merchantId), link(api, merchantId), link(api, merchantId)]);
    for (const result of results) {
      expect(result.status === 201 || result.body.error.code === 'payment_in_progress').toBe(true);
    }
    expect(results.some((result) => result.status === 201)).toBe(true);
    expect(stripe.requestsTo('POST', '/v1/accounts')).toHaveLength(1);
    expect(await accountItems(production, merchantId)).toHaveLength(1);
  });

  it('answers 503 when Stripe refuses the platform key, and records nothing', async () => {
    const { merchantId, api } = await merchantOf(production);
    stripe.answer('POST', '/v1/accounts', {
      status: 401,
      body: stripeError('invalid_request_error', 'Invalid API Key provided: sk_test_****0000'),
    });
    const result = await link(api, merchantId);
    expect({ status: result.status, code: result.body.error.code }).toEqual({
      status: 503,
      code: 'service_unavailable',
    });
    expect(JSON.stringify(result.body)).not.toContain('sk_test');
    expect(await accountItems(production, merchantId)).toEqual([]);
  });

  it('reads an active account as active when Stripe opened it enabled', async () => {
    const { merchantId, api } = await merchantOf(production);
    stripe.answer('POST', '/v1/accounts', { body: activeStripeAccount('acct_1Enabled') });
    stripe.answer('POST', '/v1/account_links', { body: stripeAccountLink(onboardingUrl, linkExpiresAt) });
    expect((await link(api, merchantId)).body.state).toBe('active');
  });
});
