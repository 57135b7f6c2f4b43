import { describe, expect, it } from 'vitest';
import { EntityType } from '../../functions/store/keys';
import { e2eFile, t } from '../support/e2e-test';
import { newKey } from '../support/local-runtime';

// The sandbox's processor accounts are simulated (docs/decisions/stripe-connect-accounts.md).
e2eFile();

const urls = {
  returnUrl: 'https://dashboard.example.com/settings/payments',
  refreshUrl: 'https://dashboard.example.com/settings/payments/reconnect',
};

describe('linking a processor account (sandbox)', () => {
  it('opens an active simulated account whose link leads straight back, calling no processor', async () => {
    const { merchantId, api } = await t.anotherMerchant();
    const path = `/merchants/${merchantId}/processor-account`;
    const result = await api('POST', path, { body: urls, idempotencyKey: newKey() });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      merchantId,
      processor: 'sandbox',
      processorAccountId: expect.stringMatching(/^sbx_acct_[0-9a-f]{24}$/),
      state: 'active',
      createdAt: expect.any(String),
      updatedAt: result.body.createdAt,
      onboardingUrl: urls.returnUrl,
      onboardingUrlExpiresAt: expect.any(String),
    });
    const again = await api('POST', path, { body: urls, idempotencyKey: newKey() });
    expect(again.body.processorAccountId).toBe(result.body.processorAccountId);
    expect(await api('GET', path)).toMatchObject({
      status: 200,
      body: { state: 'active', processor: 'sandbox' },
    });
    const items = (await t.scanTable()).filter(
      (item) => item.entityType === EntityType.processorAccount && item.merchantId === merchantId,
    );
    expect(items).toHaveLength(1);
  });
});

describe('Stripe’s webhook (sandbox)', () => {
  it('is no route of the sandbox, which has no Stripe: 404 not_found', async () => {
    const result = await t.api('POST', '/processors/stripe/events', {
      authorization: null,
      body: { id: 'evt_1' },
    });
    expect({ status: result.status, code: result.body.error.code }).toEqual({
      status: 404,
      code: 'not_found',
    });
  });
});
