import { describe, expect, it } from 'vitest';
import { e2eFile, merchantId, t } from '../support/e2e-test';
import { isoTimestamp } from '../support/iso-timestamp';
import { type ApiClient, newKey } from '../support/local-runtime';
import { allPages, expectParentReadOnlyWhenEmpty, refusedLimits } from '../support/pages';
import { writesOf } from '../support/written-items';

const test = e2eFile();
let productId: string;

test.beforeAll(async () => {
  productId = (await createProduct(t.api, merchantId, 'Priced')).productId;
});

async function createProduct(api: ApiClient, owner: string, name: string) {
  const result = await api('POST', '/catalog/products', {
    body: { merchantId: owner, name },
    idempotencyKey: newKey(),
  });
  expect(result.status).toBe(201);
  return result.body as { productId: string };
}

const pricesPath = (id: string) => `/catalog/products/${id}/prices`;

const createPrice = (body: unknown, idempotencyKey = newKey(), id = productId) =>
  t.api('POST', pricesPath(id), { body, idempotencyKey });

/** Items the request path wrote: everything but the merchant, its keys, products and the cursor key. */
const writes = writesOf(() => t, ['Price', 'IdempotencyRecord']);

describe('POST /catalog/products/{productId}/prices', () => {
  it('creates a price and returns 201 with exactly its fields', async () => {
    const result = await createPrice({ merchantId, unitAmount: 1999, currency: 'USD' });
    expect(result.status).toBe(201);
    expect(result.headers.get('idempotent-replayed')).toBeNull();
    expect(result.body).toEqual({
      priceId: expect.stringMatching(/^price_[0-9a-z]{26}$/),
      productId,
      merchantId,
      unitAmount: 1999,
      currency: 'USD',
      createdAt: expect.stringMatching(isoTimestamp),
    });
    await writes.expectStoredOnce('Price', 'priceId', result.body);
  });

  it('accepts the bounds 0 and 9007199254740991, and CAD', async () => {
    const zero = await createPrice({ merchantId, unitAmount: 0, currency: 'CAD' });
    expect(zero.status).toBe(201);
    expect(zero.body).toMatchObject({ unitAmount: 0, currency: 'CAD' });
    const max = await createPrice({ merchantId, unitAmount: 9007199254740991, currency: 'USD' });
    expect(max.status).toBe(201);
    expect(max.body.unitAmount).toBe(9007199254740991);
    const fetched = await t.api('GET', pricesPath(productId), { query: { merchantId, limit: 1 } });
    expect(fetched.body.items[0]).toEqual(max.body);
  });

  it('creates a price of an inactive product', async () => {
    const product = await createProduct(t.api, merchantId, 'Not yet on sale');
    const status = await t.api('PUT', `/catalog/products/${product.productId}/status`, {
      body: { merchantId, status: 'inactive' },
      idempotencyKey: newKey(),
    });
    expect(status.status).toBe(200);
    const result = await createPrice(
      { merchantId, unitAmount: 500, currency: 'USD' },
      newKey(),
      product.productId,
    );
    expect(result.status).toBe(201);
    expect(result.body.productId).toBe(product.productId);
  });

  it('costs one write round trip (the transaction checks the product) and no read', async () => {
    await writes.expectOneTransaction(
      () => t.api('GET', pricesPath(productId), { query: { merchantId } }),
      () => createPrice({ merchantId, unitAmount: 1, currency: 'USD' }),
    );
  });

  describe('returns 400 with a details entry naming each invalid field, and writes nothing', () => {
    const valid = { unitAmount: 100, currency: 'USD' };
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['a negative unitAmount', { ...valid, unitAmount: -1 }, ['unitAmount']],
      ['a non-integer unitAmount', { ...valid, unitAmount: 10.5 }, ['unitAmount']],
      ['a unitAmount above 9007199254740991', { ...valid, unitAmount: 9007199254740992 }, ['unitAmount']],
      ['a unitAmount given as a string', { ...valid, unitAmount: '100' }, ['unitAmount']],
      ['a missing unitAmount', { currency: 'USD' }, ['unitAmount']],
      ['currency EUR', { ...valid, currency: 'EUR' }, ['currency']],
      ['currency in lower case', { ...valid, currency: 'usd' }, ['currency']],
      ['a missing currency', { unitAmount: 100 }, ['currency']],
      ['an unknown field', { ...valid, nickname: 'standard' }, ['nickname']],
      ['a productId in the body', { ...valid, productId: 'prod_01h455vb4pex5vsknk084sn02q' }, ['productId']],
      [
        'a bad amount, a bad currency and an unknown field',
        { unitAmount: -5, currency: 'eur', a: 1 },
        ['a', 'currency', 'unitAmount'],
      ],
    ];
    for (const [label, fields, paths] of cases) {
      it(`for ${label}`, async () => {
        await writes.expectInvalid(() => createPrice({ merchantId, ...fields }), paths);
      });
    }
  });

  it("returns 404 for another merchant's product, stores that outcome, and writes no price", async () => {
    const other = await t.anotherMerchant();
    const key = newKey();
    const request = {
      body: { merchantId: other.merchantId, unitAmount: 100, currency: 'USD' },
      idempotencyKey: key,
    };
    const before = await t.scanTable();
    const result = await other.api('POST', pricesPath(productId), request);
    expect(result.status).toBe(404);
    expect(result.body.error.code).toBe('not_found');
    const replay = await other.api('POST', pricesPath(productId), request);
    expect(replay.status).toBe(404);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const after = await t.scanTable();
    expect(after.filter((item) => item.entityType === 'Price')).toHaveLength(
      before.filter((item) => item.entityType === 'Price').length,
    );
    expect(
      after.filter((item) => item.merchantId === other.merchantId && item.entityType === 'Price'),
    ).toEqual([]);
  });

  it('returns 404 for an unknown and for a malformed product id, and writes no price', async () => {
    const before = (await t.scanTable()).filter((item) => item.entityType === 'Price');
    const body = { merchantId, unitAmount: 100, currency: 'USD' };
    const unknown = await createPrice(body, newKey(), 'prod_01h455vb4pex5vsknk084sn02q');
    expect(unknown.status).toBe(404);
    const malformed = await createPrice(body, newKey(), 'prod_nope');
    expect(malformed.status).toBe(404);
    expect((await t.scanTable()).filter((item) => item.entityType === 'Price')).toHaveLength(before.length);
  });
});

describe('idempotency', () => {
  it('replays the stored response with Idempotent-Replayed: true, whatever the key order', async () => {
    const key = newKey();
    const first = await createPrice({ merchantId, unitAmount: 250, currency: 'CAD' }, key);
    await writes.expectReplayed(
      () =>
        t.api('POST', pricesPath(productId), {
          rawBody: `{"currency":"CAD", "unitAmount": 250, "merchantId":"${merchantId}"}`,
          idempotencyKey: key,
        }),
      first,
    );
  });

  it('returns 422 idempotency_key_reused for the same key with another body, and creates nothing', async () => {
    const key = newKey();
    await createPrice({ merchantId, unitAmount: 300, currency: 'USD' }, key);
    await writes.expectRefused(
      () => createPrice({ merchantId, unitAmount: 301, currency: 'USD' }, key),
      422,
      'idempotency_key_reused',
    );
  });
});

describe('GET /catalog/products/{productId}/prices', () => {
  it('pages through every price of the product newest first with signed cursors, and only its prices', async () => {
    const { merchantId: otherId, api } = await t.anotherMerchant();
    const listed = await createProduct(api, otherId, 'Listed');
    const neighbour = await createProduct(api, otherId, 'Neighbour');
    await api('POST', pricesPath(neighbour.productId), {
      body: { merchantId: otherId, unitAmount: 7, currency: 'USD' },
      idempotencyKey: newKey(),
    });
    const amounts = [100, 200, 300, 400, 500];
    for (const unitAmount of amounts) {
      const created = await api('POST', pricesPath(listed.productId), {
        body: { merchantId: otherId, unitAmount, currency: 'USD' },
        idempotencyKey: newKey(),
      });
      expect(created.status).toBe(201);
    }
    const { items, pages } = await allPages(api, pricesPath(listed.productId), {
      merchantId: otherId,
      limit: 2,
    });
    for (const item of items) expect(item.productId).toBe(listed.productId);
    expect(items.map((item) => item.unitAmount)).toEqual([...amounts].reverse());
    expect(pages).toBe(3);
  });

  it('returns an empty page for a product without prices', async () => {
    const product = await createProduct(t.api, merchantId, 'Unpriced');
    const result = await t.api('GET', pricesPath(product.productId), { query: { merchantId } });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ items: [], page: { hasMore: false } });
  });

  it("refuses a cursor of another product's price list, a tampered one and another merchant's with 400", async () => {
    const first = await createProduct(t.api, merchantId, 'Cursor A');
    const second = await createProduct(t.api, merchantId, 'Cursor B');
    for (const id of [first.productId, first.productId, second.productId, second.productId]) {
      await createPrice({ merchantId, unitAmount: 1, currency: 'USD' }, newKey(), id);
    }
    const page = await t.api('GET', pricesPath(first.productId), { query: { merchantId, limit: 1 } });
    const cursor: string = page.body.page.nextCursor;
    expect((await t.api('GET', pricesPath(first.productId), { query: { merchantId, cursor } })).status).toBe(
      200,
    );
    const otherProduct = await t.api('GET', pricesPath(second.productId), { query: { merchantId, cursor } });
    expect(otherProduct.status).toBe(400);
    expect(otherProduct.body.error.details).toEqual([
      { path: 'cursor', message: 'must be a nextCursor of this list, with the same filters.' },
    ]);
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'BB' : 'AA'}`;
    const bad = await t.api('GET', pricesPath(first.productId), { query: { merchantId, cursor: tampered } });
    expect(bad.status).toBe(400);
    const other = await t.anotherMerchant();
    const otherOwn = await createProduct(other.api, other.merchantId, 'Theirs');
    const foreign = await other.api('GET', pricesPath(otherOwn.productId), {
      query: { merchantId: other.merchantId, cursor },
    });
    expect(foreign.status).toBe(400);
  });

  it("returns 404 for another merchant's product, even when it has prices", async () => {
    const other = await t.anotherMerchant();
    const result = await other.api('GET', pricesPath(productId), { query: { merchantId: other.merchantId } });
    expect(result.status).toBe(404);
    expect(result.body.error.code).toBe('not_found');
  });

  it('returns 404 for an unknown and for a malformed product id', async () => {
    const unknown = await t.api('GET', pricesPath('prod_01h455vb4pex5vsknk084sn02q'), {
      query: { merchantId },
    });
    expect(unknown.status).toBe(404);
    const malformed = await t.api('GET', pricesPath('prod_nope'), { query: { merchantId } });
    expect(malformed.status).toBe(404);
  });

  it('reads the product only for an empty first page: one round trip whenever prices are found', async () => {
    const priced = await createProduct(t.api, merchantId, 'Two prices');
    for (const unitAmount of [10, 20]) {
      expect(
        (await createPrice({ merchantId, unitAmount, currency: 'USD' }, newKey(), priced.productId)).status,
      ).toBe(201);
    }
    const unpriced = await createProduct(t.api, merchantId, 'No prices');
    const list = (id: string, query: Record<string, string | number> = {}) =>
      t.api('GET', pricesPath(id), { query: { merchantId, ...query } });
    await list(priced.productId, { limit: 1 }); // warms the cursor signing key

    let cursor = '';
    await expectParentReadOnlyWhenEmpty({
      firstPage: async () => {
        const result = await list(priced.productId, { limit: 1 });
        expect(result.body.items.map((item: { unitAmount: number }) => item.unitAmount)).toEqual([20]);
        cursor = result.body.page.nextCursor;
      },
      secondPage: async () => {
        const result = await list(priced.productId, { limit: 1, cursor });
        expect(result.status).toBe(200);
        expect(result.body.items.map((item: { unitAmount: number }) => item.unitAmount)).toEqual([10]);
        expect(result.body.page).toEqual({ hasMore: false });
      },
      emptyPage: async () => {
        expect((await list(unpriced.productId)).body).toEqual({ items: [], page: { hasMore: false } });
      },
      unknownParent: async () => {
        expect((await list('prod_01h455vb4pex5vsknk084sn02q')).status).toBe(404);
      },
    });
  });

  it("returns 404 for another merchant's product without prices", async () => {
    const other = await t.anotherMerchant();
    const theirs = await createProduct(other.api, other.merchantId, 'Theirs, unpriced');
    const result = await t.api('GET', pricesPath(theirs.productId), { query: { merchantId } });
    expect(result.status).toBe(404);
    expect(result.body.error).toMatchObject({ code: 'not_found', message: 'The product does not exist.' });
  });

  it.each(refusedLimits)('returns 400 for a limit of %s, outside 1–100', async (limit, message) => {
    const result = await t.api('GET', pricesPath(productId), { query: { merchantId, limit } });
    expect(result.status).toBe(400);
    expect(result.body.error.details).toEqual([{ path: 'limit', message }]);
  });
});
