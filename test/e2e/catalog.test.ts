import { describe, expect, it } from 'vitest';
import { e2eFile, merchantId, t } from '../support/e2e-test';
import { isoTimestamp } from '../support/iso-timestamp';
import { newKey } from '../support/local-runtime';
import { allPages, refusedLimits } from '../support/pages';
import { writesOf } from '../support/written-items';

e2eFile();

const createProduct = (body: unknown, idempotencyKey = newKey()) =>
  t.api('POST', '/catalog/products', { body, idempotencyKey });

/** Items the request path wrote: everything but the merchant, its keys and the cursor key. */
const writes = writesOf(() => t, ['Product', 'IdempotencyRecord']);

describe('POST /catalog/products', () => {
  it('creates an active product and returns 201 with the documented fields', async () => {
    const result = await createProduct({ merchantId, name: 'Green tea', description: 'Loose leaf' });
    expect(result.status).toBe(201);
    expect(result.headers.get('idempotent-replayed')).toBeNull();
    expect(result.body).toEqual({
      productId: expect.stringMatching(/^prod_[0-9a-z]{26}$/),
      merchantId,
      name: 'Green tea',
      description: 'Loose leaf',
      status: 'active',
      active: true,
      createdAt: expect.stringMatching(isoTimestamp),
    });
  });

  it('costs one write round trip (the transaction) and no read before it', async () => {
    await writes.expectOneTransaction(
      () => t.api('GET', '/catalog/products', { query: { merchantId } }),
      () => createProduct({ merchantId, name: 'Counted' }),
    );
  });

  describe('returns 400 with a details entry naming each invalid field, and writes nothing', () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['a missing name', {}, ['name']],
      ['an empty name', { name: '' }, ['name']],
      ['a blank name', { name: '   ' }, ['name']],
      ['a name over 200 characters', { name: 'x'.repeat(201) }, ['name']],
      ['a name that is not a string', { name: 42 }, ['name']],
      ['a description over 2000 characters', { name: 'ok', description: 'x'.repeat(2001) }, ['description']],
      ['a description that is not a string', { name: 'ok', description: ['x'] }, ['description']],
      ['an unknown field', { name: 'ok', colour: 'green' }, ['colour']],
      ['two unknown fields and a bad name', { name: 7, a: 1, b: 2 }, ['name', 'a', 'b']],
    ];
    for (const [label, fields, paths] of cases) {
      it(`for ${label}`, async () => {
        await writes.expectInvalid(() => createProduct({ merchantId, ...fields }), paths);
      });
    }

    it('for a merchantId that is not a mer_ TypeID', async () => {
      const result = await createProduct({ merchantId: 'merchant-1', name: 'x' });
      expect(result.status).toBe(400);
      expect(result.body.error.details).toEqual([{ path: 'merchantId', message: 'must be a mer_ TypeID.' }]);
    });

    it("in the service's own words: a missing merchantId and a name over 200 characters", async () => {
      const result = await createProduct({ name: 'x'.repeat(201) });
      expect(result.status).toBe(400);
      expect(result.body).toEqual({
        error: {
          code: 'validation_error',
          message: 'The request is not valid.',
          requestId: expect.any(String),
          details: [
            { path: 'merchantId', message: 'merchantId is required.' },
            { path: 'name', message: 'must be at most 200 characters.' },
          ],
        },
      });
    });

    it('for a body that is not an object', async () => {
      const result = await createProduct(['a']);
      expect(result.status).toBe(400);
      expect(result.body.error.code).toBe('validation_error');
      expect(result.body.error.details).toEqual([{ path: 'body', message: 'must be an object.' }]);
    });
  });

  it('returns 400 invalid_json for a broken body and writes nothing', async () => {
    const before = await writes.items();
    const result = await t.api('POST', '/catalog/products', {
      rawBody: '{"name":',
      idempotencyKey: newKey(),
    });
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe('invalid_json');
    expect(await writes.items()).toHaveLength(before.length);
  });

  it('returns 400 naming a field whose text holds a lone UTF-16 surrogate, and writes nothing', async () => {
    const before = await writes.items();
    const result = await t.api('POST', '/catalog/products', {
      // JSON can escape half of a surrogate pair; the text has no UTF-8 form to store.
      rawBody: `{"merchantId":"${merchantId}","name":"tea \\ud83d"}`,
      idempotencyKey: newKey(),
    });
    expect(result.status).toBe(400);
    expect(result.body.error.details).toEqual([
      { path: 'name', message: 'must be well-formed Unicode text, without a lone UTF-16 surrogate.' },
    ]);
    expect(await writes.items()).toHaveLength(before.length);
  });

  it('returns 413 payload_too_large for a body over 256 KB', async () => {
    const result = await createProduct({ merchantId, name: 'big', description: 'x'.repeat(300 * 1024) });
    expect(result.status).toBe(413);
    expect(result.body.error.code).toBe('payload_too_large');
  });

  it('returns 400 idempotency_key_required without an Idempotency-Key', async () => {
    const result = await t.api('POST', '/catalog/products', { body: { merchantId, name: 'x' } });
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe('idempotency_key_required');
  });

  it('returns 400 idempotency_key_required for a key over 255 characters', async () => {
    const result = await createProduct({ merchantId, name: 'x' }, 'k'.repeat(256));
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe('idempotency_key_required');
  });
});

describe('idempotency', () => {
  it('replays the stored response with Idempotent-Replayed: true, whatever the key order', async () => {
    const key = newKey();
    const first = await createProduct({ merchantId, name: 'Replayed', description: 'd' }, key);
    const again = await t.api('POST', '/catalog/products', {
      rawBody: `{ "description": "d",  "name": "Replayed", "merchantId": "${merchantId}" }`,
      idempotencyKey: key,
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('returns 422 idempotency_key_reused for the same key with another body, and creates nothing', async () => {
    const key = newKey();
    await createProduct({ merchantId, name: 'First' }, key);
    await writes.expectRefused(
      () => createProduct({ merchantId, name: 'Second' }, key),
      422,
      'idempotency_key_reused',
    );
  });

  it('does not store a 400: the same key works once the body is fixed', async () => {
    const key = newKey();
    expect((await createProduct({ merchantId, name: '' }, key)).status).toBe(400);
    expect((await createProduct({ merchantId, name: 'Fixed' }, key)).status).toBe(201);
  });

  it('keeps keys of different paths apart', async () => {
    const key = newKey();
    const created = await createProduct({ merchantId, name: 'Keyed' }, key);
    const status = await t.api('PUT', `/catalog/products/${created.body.productId}/status`, {
      body: { merchantId, status: 'inactive' },
      idempotencyKey: key,
    });
    expect(status.status).toBe(200);
    expect(status.headers.get('idempotent-replayed')).toBeNull();
  });

  it('makes one product of 20 concurrent identical creates, and all get the same response', async () => {
    const key = newKey();
    const body = { merchantId, name: 'Concurrent' };
    const results = await Promise.all(Array.from({ length: 20 }, () => createProduct(body, key)));
    expect(results.map((result) => result.status)).toEqual(Array(20).fill(201));
    const productIds = new Set(results.map((result) => result.body.productId));
    expect(productIds.size).toBe(1);
    expect(results.filter((result) => result.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    const stored = (await t.scanTable()).filter(
      (item) => item.entityType === 'Product' && item.name === 'Concurrent',
    );
    expect(stored).toHaveLength(1);
  });
});

describe('PUT /catalog/products/{productId}/status', () => {
  it('sets the product inactive and back to active', async () => {
    const { body: product } = await createProduct({ merchantId, name: 'Toggle' });
    const path = `/catalog/products/${product.productId}/status`;
    const inactive = await t.api('PUT', path, {
      body: { merchantId, status: 'inactive' },
      idempotencyKey: newKey(),
    });
    expect(inactive.status).toBe(200);
    expect(inactive.body).toEqual({ ...product, status: 'inactive', active: false });
    const fetched = await t.api('GET', `/catalog/products/${product.productId}`, { query: { merchantId } });
    expect(fetched.body).toEqual({ ...product, status: 'inactive', active: false });
    const active = await t.api('PUT', path, {
      body: { merchantId, status: 'active' },
      idempotencyKey: newKey(),
    });
    expect(active.body).toEqual(product);
  });

  it('answers 200 and changes nothing when the status is already the target', async () => {
    const { body: product } = await createProduct({ merchantId, name: 'Same' });
    const result = await t.api('PUT', `/catalog/products/${product.productId}/status`, {
      body: { merchantId, status: 'active' },
      idempotencyKey: newKey(),
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(product);
  });

  it('returns 400 naming the status field for an unknown status', async () => {
    const { body: product } = await createProduct({ merchantId, name: 'Bad status' });
    const result = await t.api('PUT', `/catalog/products/${product.productId}/status`, {
      body: { merchantId, status: 'archived', active: false },
      idempotencyKey: newKey(),
    });
    expect(result.status).toBe(400);
    expect(result.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual([
      'active',
      'status',
    ]);
  });

  it("returns 404 for another merchant's product, stores that outcome, and leaves the product alone", async () => {
    const { body: product } = await createProduct({ merchantId, name: 'Mine' });
    const other = await t.anotherMerchant();
    const key = newKey();
    const request = { body: { merchantId: other.merchantId, status: 'inactive' }, idempotencyKey: key };
    const result = await other.api('PUT', `/catalog/products/${product.productId}/status`, request);
    expect(result.status).toBe(404);
    expect(result.body.error.code).toBe('not_found');
    const replay = await other.api('PUT', `/catalog/products/${product.productId}/status`, request);
    expect(replay.status).toBe(404);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const mine = await t.api('GET', `/catalog/products/${product.productId}`, { query: { merchantId } });
    expect(mine.body.status).toBe('active');
  });
});

describe('GET /catalog/products/{productId}', () => {
  it("returns 404 for another merchant's product", async () => {
    const { body: product } = await createProduct({ merchantId, name: 'Private' });
    const other = await t.anotherMerchant();
    const result = await other.api('GET', `/catalog/products/${product.productId}`, {
      query: { merchantId: other.merchantId },
    });
    expect(result.status).toBe(404);
    expect(result.body.error.code).toBe('not_found');
  });

  it('returns 404 for a malformed product id', async () => {
    const result = await t.api('GET', '/catalog/products/prod_nope', { query: { merchantId } });
    expect(result.status).toBe(404);
  });

  it('returns 400 for an unknown query parameter', async () => {
    const { body: product } = await createProduct({ merchantId, name: 'Query' });
    const result = await t.api('GET', `/catalog/products/${product.productId}`, {
      query: { merchantId, expand: 'x' },
    });
    expect(result.status).toBe(400);
    expect(result.body.error.details).toEqual([{ path: 'expand', message: 'expand is not a known field.' }]);
  });
});

describe('GET /catalog/products', () => {
  it('pages through every product newest first with signed cursors', async () => {
    const { merchantId: otherId, api } = await t.anotherMerchant();
    const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
    for (const name of names) {
      await api('POST', '/catalog/products', {
        body: { merchantId: otherId, name },
        idempotencyKey: newKey(),
      });
    }
    const { items, pages } = await allPages(api, '/catalog/products', { merchantId: otherId, limit: 2 });
    expect(items.map((item) => item.name)).toEqual([...names].reverse());
    expect(pages).toBe(3);
  });

  it('says hasMore false without a cursor when the page is exactly full', async () => {
    const { merchantId: otherId, api } = await t.anotherMerchant();
    for (const name of ['a', 'b']) {
      await api('POST', '/catalog/products', {
        body: { merchantId: otherId, name },
        idempotencyKey: newKey(),
      });
    }
    const result = await api('GET', '/catalog/products', { query: { merchantId: otherId, limit: 2 } });
    expect(result.body.page).toEqual({ hasMore: false });
  });

  it("refuses a tampered cursor and another merchant's cursor with 400", async () => {
    await createProduct({ merchantId, name: 'c1' });
    await createProduct({ merchantId, name: 'c2' });
    const first = await t.api('GET', '/catalog/products', { query: { merchantId, limit: 1 } });
    const cursor: string = first.body.page.nextCursor;
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'BB' : 'AA'}`;
    const bad = await t.api('GET', '/catalog/products', { query: { merchantId, cursor: tampered } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([
      { path: 'cursor', message: 'must be a nextCursor of this list, with the same filters.' },
    ]);
    const other = await t.anotherMerchant();
    const foreign = await other.api('GET', '/catalog/products', {
      query: { merchantId: other.merchantId, cursor },
    });
    expect(foreign.status).toBe(400);
  });

  it.each(refusedLimits)('returns 400 for a limit of %s, outside 1–100', async (limit, message) => {
    const result = await t.api('GET', '/catalog/products', { query: { merchantId, limit } });
    expect(result.status).toBe(400);
    expect(result.body.error.details).toEqual([{ path: 'limit', message }]);
  });
});

describe('unknown routes', () => {
  it('returns 404 not_found in the error shape', async () => {
    const result = await t.api('GET', '/catalog/nothing-here');
    expect(result.status).toBe(404);
    expect(result.body.error.code).toBe('not_found');
    const wrongMethod = await t.api('DELETE', '/catalog/products');
    expect(wrongMethod.status).toBe(404);
  });
});
