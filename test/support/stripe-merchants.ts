import { expect } from 'vitest';
import { type ApiClient, apiClient, newKey } from './local-runtime';
import {
  accountUpdatedEvent,
  activeStripeAccount,
  stripeAccount,
  stripeAccountLink,
  stripeSignature,
} from './stripe-fixtures';
import type { StripeRecordingServer } from './stripe-recording-server';

const nowSeconds = () => Math.floor(Date.now() / 1000);
let eventCount = 0;

/**
 * A fresh Stripe event id, unique in the run, and always of one length: a worker keeps this module
 * from file to file, and the performance model counts the bytes of the answer that echoes the id.
 */
export function stripeEventId(): string {
  eventCount += 1;
  return `evt_1Test${Date.now()}${String(eventCount).padStart(6, '0')}`;
}

/** POSTs `event` to the runtime's Stripe webhook as Stripe would: its JSON, signed. */
export function deliverStripeEvent(baseUrl: string, event: unknown) {
  const text = JSON.stringify(event);
  return apiClient(baseUrl, 'unused')('POST', '/processors/stripe/events', {
    authorization: null,
    rawBody: text,
    headers: { 'Stripe-Signature': stripeSignature(text) },
  });
}

type Merchant = { readonly merchantId: string; readonly api: ApiClient };

/** Links the merchant's Stripe account `accountId` through the API, Stripe answered by the recording server: `pending`. */
export async function linkStripeAccount(
  merchant: Merchant,
  stripe: StripeRecordingServer,
  accountId: string,
): Promise<void> {
  stripe.answer('POST', '/v1/accounts', {
    body: stripeAccount(accountId, { metadata: { merchantId: merchant.merchantId } }),
  });
  stripe.answer('POST', '/v1/account_links', {
    body: stripeAccountLink('https://connect.stripe.com/setup/x', nowSeconds() + 300),
  });
  const linked = await merchant.api('POST', `/merchants/${merchant.merchantId}/processor-account`, {
    body: { returnUrl: 'https://shop.example.com/back', refreshUrl: 'https://shop.example.com/again' },
    idempotencyKey: newKey(),
  });
  expect(linked.status).toBe(201);
  expect(linked.body.state).toBe('pending');
}

/** `linkStripeAccount`, then the account made active by a signed `account.updated`, as Stripe does once onboarding is done. */
export async function linkActiveStripeAccount(
  runtime: { readonly baseUrl: string },
  merchant: Merchant,
  stripe: StripeRecordingServer,
  accountId: string,
): Promise<void> {
  await linkStripeAccount(merchant, stripe, accountId);
  const active = { ...activeStripeAccount(accountId), metadata: { merchantId: merchant.merchantId } };
  const event = accountUpdatedEvent(stripeEventId(), active, nowSeconds());
  expect((await deliverStripeEvent(runtime.baseUrl, event)).body.outcome).toBe('applied');
}
