import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildStripeClient,
  stripeApiVersion,
  stripeMaxNetworkRetries,
} from '../../../functions/payments/stripe/stripe-client';
import { stripeAccount, stripeError, testStripeSecretKey } from '../../support/stripe-fixtures';
import {
  type StripeRecordingServer,
  startStripeRecordingServer,
} from '../../support/stripe-recording-server';

let server: StripeRecordingServer;

beforeAll(async () => {
  server = await startStripeRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const client = (timeoutMs = 4000) =>
  buildStripeClient(testStripeSecretKey, {
    STRIPE_API_BASE_URL: server.baseUrl,
    STRIPE_TIMEOUT_MS: timeoutMs,
  });

describe('buildStripeClient', () => {
  it('sends the SDK’s requests to the configured server with the key and the pinned version', async () => {
    server.answer('GET', '/v1/accounts/acct_1Recorded', { body: stripeAccount('acct_1Recorded') });
    const account = await client().accounts.retrieve('acct_1Recorded');
    expect(account.id).toBe('acct_1Recorded');
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${testStripeSecretKey}`);
    expect(request?.headers['stripe-version']).toBe(stripeApiVersion);
  });

  it('retries a 5xx once with the same idempotency key, then gives up', async () => {
    server.answer('POST', '/v1/accounts', { status: 500, body: stripeError('api_error', 'boom') });
    const failure = await client()
      .accounts.create({}, { idempotencyKey: 'key-1' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Stripe.errors.StripeAPIError);
    const sent = server.requestsTo('POST', '/v1/accounts');
    expect(sent).toHaveLength(1 + stripeMaxNetworkRetries);
    expect(sent.map((request) => request.headers['idempotency-key'])).toEqual(['key-1', 'key-1']);
  });

  it('does not retry a 429 that Stripe does not ask to retry', async () => {
    server.answer('POST', '/v1/accounts', {
      status: 429,
      body: stripeError('rate_limit_error', 'slow down'),
    });
    const failure = await client()
      .accounts.create({}, { idempotencyKey: 'key-2' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
    expect(server.requestsTo('POST', '/v1/accounts')).toHaveLength(1);
  });

  it('gives up on a server that never answers after its timeout, once retried', async () => {
    server.answer('POST', '/v1/accounts', { hang: true });
    const failure = await client(200)
      .accounts.create({}, { idempotencyKey: 'key-3' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(server.requestsTo('POST', '/v1/accounts')).toHaveLength(1 + stripeMaxNetworkRetries);
  });
});
