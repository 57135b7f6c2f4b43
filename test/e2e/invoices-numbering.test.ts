import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceFixtures } from '../support/invoices';
import {
  type ApiClient,
  dynamoDbCommandsDuring,
  newKey,
  startTestRuntime,
  type TestRuntime,
} from '../support/local-runtime';

let t: TestRuntime;

// On the file's own database in the suite's DynamoDB Local (test/support/dynamodb.ts), after every
// other file (vitest.config.ts): a database holding every earlier file's stream records made the
// burst below take 27 s of its 29 s limit, against ~10 s on a fresh one.
beforeAll(async () => {
  t = await startTestRuntime();
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

async function createInvoices(api: ApiClient, merchantId: string, count: number) {
  const { customerId, productId, priceId } = await invoiceFixtures(api, merchantId);
  const body = {
    merchantId,
    customerId,
    currency: 'USD',
    lineItems: [{ kind: 'product_charge', productId, priceId, quantity: 1 }],
  };
  return Promise.all(
    Array.from({ length: count }, () => api('POST', '/invoices', { body, idempotencyKey: newKey() })),
  );
}

const numbersOf = (results: { body: { invoiceNumber: string } }[]) =>
  results.map((result) => result.body.invoiceNumber).sort();

describe('invoice numbers', () => {
  it('gives 50 concurrent creates of one merchant INV-000001 … INV-000050, no gap and no duplicate', async () => {
    const { merchantId, api } = await t.anotherMerchant();
    const results = await createInvoices(api, merchantId, 50);
    expect(results.map((result) => `${result.status} ${result.body?.error?.code ?? ''}`)).toEqual(
      Array(50).fill('201 '),
    );
    const expected = Array.from({ length: 50 }, (_, index) => `INV-${String(index + 1).padStart(6, '0')}`);
    expect(numbersOf(results)).toEqual(expected);
    const stored = (await t.scanTable()).filter(
      (item) => item.entityType === 'Invoice' && item.merchantId === merchantId,
    );
    expect(stored.map((item) => item.invoiceNumber).sort()).toEqual(expected);
  }, 60_000);

  it("numbers a second merchant's invoices on their own, from INV-000001", async () => {
    const first = await t.anotherMerchant();
    const second = await t.anotherMerchant();
    const [firstResults, secondResults] = await Promise.all([
      createInvoices(first.api, first.merchantId, 5),
      createInvoices(second.api, second.merchantId, 3),
    ]);
    expect(numbersOf(firstResults)).toEqual([
      'INV-000001',
      'INV-000002',
      'INV-000003',
      'INV-000004',
      'INV-000005',
    ]);
    expect(numbersOf(secondResults)).toEqual(['INV-000001', 'INV-000002', 'INV-000003']);
  }, 60_000);

  it('leaves no gap after a refused create', async () => {
    const { merchantId, api } = await t.anotherMerchant();
    const [first] = await createInvoices(api, merchantId, 1);
    const refused = await api('POST', '/invoices', {
      body: {
        merchantId,
        customerId: first?.body.customerId,
        currency: 'USD',
        lineItems: [
          {
            kind: 'product_charge',
            productId: first?.body.lineItems[0].productId,
            priceId: 'price_01h455vb4pex5vsknk084sn02q',
            quantity: 1,
          },
        ],
      },
      idempotencyKey: newKey(),
    });
    expect(refused.status).toBe(400);
    const next = await api('POST', '/invoices', {
      body: {
        merchantId,
        customerId: first?.body.customerId,
        currency: 'USD',
        lineItems: [{ kind: 'manual_adjustment', adjustmentType: 'fee', description: 'Setup', amount: 100 }],
      },
      idempotencyKey: newKey(),
    });
    expect(next.body.invoiceNumber).toBe('INV-000002');
  });
});

describe('POST /invoices cost', () => {
  it('is one batched read and one transaction on the happy path', async () => {
    const merchantId = t.runtime.merchantId;
    const { customerId, productId, priceId } = await invoiceFixtures(t.api, merchantId);
    const second = await t.api('POST', `/catalog/products/${productId}/prices`, {
      body: { merchantId, unitAmount: 999, currency: 'USD' },
      idempotencyKey: newKey(),
    });
    // Warms the authorizer cache, so only the handler's own calls are counted.
    await t.api('GET', '/invoices', { query: { merchantId } });
    const commands = await dynamoDbCommandsDuring(async () => {
      const result = await t.api('POST', '/invoices', {
        body: {
          merchantId,
          customerId,
          currency: 'USD',
          lineItems: [
            { kind: 'product_charge', productId, priceId, quantity: 2 },
            { kind: 'product_charge', productId, priceId: second.body.priceId, quantity: 1 },
            { kind: 'manual_adjustment', adjustmentType: 'tax', description: 'Tax', amount: 300 },
          ],
        },
        idempotencyKey: newKey(),
      });
      expect(result.status).toBe(201);
    });
    expect(commands).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
  });
});
