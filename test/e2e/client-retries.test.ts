import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect } from 'vitest';
import {
  MerchantPayments,
  MerchantPaymentsConnectionError,
  MerchantPaymentsError,
} from '../../client/src/index';
import { e2eTest } from '../support/e2e-test';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy';

const test = e2eTest();

let proxy: FaultProxy | undefined;

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/** A client of the runtime's merchant that reaches the gateway through a fault proxy. */
async function proxiedClient(
  t: { runtime: { apiKey: string; baseUrl: string }; merchantId: string },
  options: { timeoutMs?: number; maxRetries?: number } = {},
) {
  proxy = await startFaultProxy(t.runtime.baseUrl);
  const client = new MerchantPayments({
    apiKey: t.runtime.apiKey,
    merchantId: t.merchantId,
    baseUrl: proxy.url,
    ...options,
  });
  return { client, proxy };
}

const rateLimited = {
  kind: 'answer',
  status: 429,
  headers: { 'Retry-After': '1' },
  body: { error: { code: 'rate_limited', message: 'Too many requests' } },
} as const;

describe('the client retries what is worth retrying, with the same Idempotency-Key', () => {
  test('a create whose answer is lost is sent again with its key, and makes one product', async ({ t }) => {
    const { client, proxy } = await proxiedClient(t);
    proxy.plan((_request, index) => (index === 0 ? { kind: 'dropAnswer' } : { kind: 'forward' }));
    const name = `Lost answer ${randomUUID()}`;

    const product = await client.catalog.products.create({ name });

    const creates = proxy.requests.filter((request) => request.method === 'POST');
    expect(creates).toHaveLength(2);
    expect(creates[0]?.idempotencyKey).toMatch(/^[\x21-\x7e]{1,255}$/);
    expect(creates[1]?.idempotencyKey).toBe(creates[0]?.idempotencyKey);
    const listed = await client.catalog.products.list({ limit: 100 }).toArray();
    expect(listed.filter((listedProduct) => listedProduct.name === name)).toEqual([product]);
  });

  test('a 429 is waited out for its Retry-After, then sent again with the same key', async ({ t }) => {
    const { client, proxy } = await proxiedClient(t);
    proxy.plan((_request, index) => (index === 0 ? rateLimited : { kind: 'forward' }));

    await client.customers.create(
      { name: 'Waits', email: 'waits@example.com' },
      { idempotencyKey: 'retry-429' },
    );

    const [first, second] = proxy.requests;
    expect(proxy.requests).toHaveLength(2);
    expect(second?.idempotencyKey).toBe('retry-429');
    expect(first?.idempotencyKey).toBe('retry-429');
    // Retry-After is 1 second: the retry cannot come sooner (timers fire no earlier than asked).
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(999);
  });

  test('a 409 idempotency_in_progress and a 503 are retried; a 400 is thrown at once', async ({ t }) => {
    const { client, proxy } = await proxiedClient(t);
    const inProgress = { error: { code: 'idempotency_in_progress', message: 'In progress' } };
    proxy.plan((_request, index) =>
      index === 0
        ? { kind: 'answer', status: 409, body: inProgress }
        : index === 1
          ? { kind: 'answer', status: 503, body: { error: { code: 'service_unavailable', message: 'Down' } } }
          : { kind: 'forward' },
    );
    await client.catalog.products.create({ name: 'Third time' });
    expect(proxy.requests).toHaveLength(3);
    expect(new Set(proxy.requests.map((request) => request.idempotencyKey)).size).toBe(1);

    proxy.requests.length = 0;
    proxy.plan(() => ({ kind: 'forward' }));
    const error = await client.catalog.products.create({ name: '' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!(error instanceof MerchantPaymentsError)) throw new Error(`not an API error: ${error}`);
    expect(error).toMatchObject({ status: 400, code: 'validation_error' });
    expect(error.requestId).toMatch(/\S/);
    expect(error.details.map((detail) => detail.path)).toContain('name');
    expect(proxy.requests).toHaveLength(1);
  });

  test('an attempt over its timeout is abandoned and retried; the last failure is thrown', async ({ t }) => {
    // A second retry in reserve, so that a slow answer on a busy machine does not fail the test.
    const { client, proxy } = await proxiedClient(t, { timeoutMs: 1_500, maxRetries: 2 });
    proxy.plan((_request, index) => (index === 0 ? { kind: 'hang' } : { kind: 'forward' }));
    const customers = await client.customers.list({ limit: 1 }).page();
    expect(customers.items.length).toBeLessThanOrEqual(1);
    expect(proxy.requests.length).toBeGreaterThanOrEqual(2);

    proxy.requests.length = 0;
    proxy.plan(() => ({ kind: 'hang' }));
    const failed = client.customers.list({}, { maxRetries: 1 }).page();
    await expect(failed).rejects.toBeInstanceOf(MerchantPaymentsConnectionError);
    await expect(failed).rejects.toMatchObject({ reason: 'timeout' });
    expect(proxy.requests).toHaveLength(2);
  });
});
