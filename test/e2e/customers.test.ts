import { describe, expect, it } from 'vitest';
import { e2eFile, merchantId, t } from '../support/e2e-test';
import { isoTimestamp } from '../support/iso-timestamp';
import { detailPaths, newKey } from '../support/local-runtime';
import { allPages, refusedLimits } from '../support/pages';
import { writesOf } from '../support/written-items';

e2eFile();

const createCustomer = (body: unknown, idempotencyKey = newKey()) =>
  t.api('POST', '/customers', { body, idempotencyKey });

/** Items the request path wrote: everything but the merchant, its keys and the cursor key. */
const writes = writesOf(() => t, ['Customer', 'IdempotencyRecord']);

describe('POST /customers', () => {
  it('creates a customer and returns 201 with exactly its fields', async () => {
    const result = await createCustomer({ merchantId, name: 'Ana Silva', email: 'ana@example.com' });
    expect(result.status).toBe(201);
    expect(result.headers.get('idempotent-replayed')).toBeNull();
    expect(result.body).toEqual({
      customerId: expect.stringMatching(/^cust_[0-9a-z]{26}$/),
      merchantId,
      name: 'Ana Silva',
      email: 'ana@example.com',
      createdAt: expect.stringMatching(isoTimestamp),
    });
    await writes.expectStoredOnce('Customer', 'customerId', result.body);
  });

  it('keeps the email exactly as given and trims the name', async () => {
    const result = await createCustomer({ merchantId, name: '  Bo  ', email: 'Bo.Lee@Example.COM' });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ name: 'Bo', email: 'Bo.Lee@Example.COM' });
  });

  it('costs one write round trip (the transaction) and no read before it', async () => {
    await writes.expectOneTransaction(
      () => t.api('GET', '/customers', { query: { merchantId } }),
      () => createCustomer({ merchantId, name: 'Counted', email: 'count@example.com' }),
    );
  });

  describe('returns 400 with a details entry naming each invalid field, and writes nothing', () => {
    const valid = { name: 'Valid', email: 'valid@example.com' };
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['a missing name', { email: valid.email }, ['name']],
      ['an empty name', { ...valid, name: '' }, ['name']],
      ['a blank name', { ...valid, name: '   ' }, ['name']],
      ['a name over 200 characters', { ...valid, name: 'x'.repeat(201) }, ['name']],
      ['a name that is not a string', { ...valid, name: 42 }, ['name']],
      ['a missing email', { name: valid.name }, ['email']],
      ['an email with a leading dot', { ...valid, email: '.ana@example.com' }, ['email']],
      ['an email with consecutive dots', { ...valid, email: 'ana..silva@example.com' }, ['email']],
      ['an email with a one-letter TLD', { ...valid, email: 'ana@example.c' }, ['email']],
      ['an email without @', { ...valid, email: 'ana.example.com' }, ['email']],
      ['an email over 254 characters', { ...valid, email: `${'a'.repeat(250)}@example.com` }, ['email']],
      ['an email that is not a string', { ...valid, email: ['ana@example.com'] }, ['email']],
      ['an unknown field', { ...valid, phone: '+15550100' }, ['phone']],
      [
        'an empty name, a bad email and an unknown field',
        { name: '', email: 'x', a: 1 },
        ['a', 'email', 'name'],
      ],
    ];
    for (const [label, fields, paths] of cases) {
      it(`for ${label}`, async () => {
        await writes.expectInvalid(() => createCustomer({ merchantId, ...fields }), paths);
      });
    }

    it('for a missing merchantId', async () => {
      const result = await createCustomer(valid);
      expect(result.status).toBe(400);
      expect(detailPaths(result.body)).toEqual(['merchantId']);
    });
  });

  it("returns 403 for another merchant's merchantId and writes nothing", async () => {
    const other = await t.anotherMerchant();
    await writes.expectRefused(
      () => createCustomer({ merchantId: other.merchantId, name: 'X', email: 'x@example.com' }),
      403,
      'forbidden',
    );
  });
});

describe('idempotency', () => {
  it('replays the stored response with Idempotent-Replayed: true, whatever the key order', async () => {
    const key = newKey();
    const first = await createCustomer({ merchantId, name: 'Replayed', email: 'r@example.com' }, key);
    await writes.expectReplayed(
      () =>
        t.api('POST', '/customers', {
          rawBody: `{ "email": "r@example.com", "name": "Replayed",  "merchantId": "${merchantId}" }`,
          idempotencyKey: key,
        }),
      first,
    );
  });

  it('returns 422 idempotency_key_reused for the same key with another body, and creates nothing', async () => {
    const key = newKey();
    await createCustomer({ merchantId, name: 'First', email: 'first@example.com' }, key);
    await writes.expectRefused(
      () => createCustomer({ merchantId, name: 'Second', email: 'first@example.com' }, key),
      422,
      'idempotency_key_reused',
    );
  });
});

describe('GET /customers/{customerId}', () => {
  it('returns the customer as created', async () => {
    const { body: customer } = await createCustomer({ merchantId, name: 'Fetched', email: 'f@example.com' });
    const result = await t.api('GET', `/customers/${customer.customerId}`, { query: { merchantId } });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(customer);
  });

  it("returns 404 for another merchant's customer", async () => {
    const { body: customer } = await createCustomer({ merchantId, name: 'Private', email: 'p@example.com' });
    const other = await t.anotherMerchant();
    const result = await other.api('GET', `/customers/${customer.customerId}`, {
      query: { merchantId: other.merchantId },
    });
    expect(result.status).toBe(404);
    expect(result.body.error.code).toBe('not_found');
  });

  it('returns 404 for an unknown and for a malformed customer id', async () => {
    const unknown = await t.api('GET', '/customers/cust_01h455vb4pex5vsknk084sn02q', {
      query: { merchantId },
    });
    expect(unknown.status).toBe(404);
    const malformed = await t.api('GET', '/customers/cust_nope', { query: { merchantId } });
    expect(malformed.status).toBe(404);
  });

  it('returns 400 naming merchantId when the query lacks it', async () => {
    const { body: customer } = await createCustomer({ merchantId, name: 'Scoped', email: 's@example.com' });
    const result = await t.api('GET', `/customers/${customer.customerId}`);
    expect(result.status).toBe(400);
    expect(detailPaths(result.body)).toEqual(['merchantId']);
  });
});

describe('GET /customers', () => {
  it('pages through every customer newest first with signed cursors, and only customers', async () => {
    const { merchantId: otherId, api } = await t.anotherMerchant();
    await api('POST', '/catalog/products', {
      body: { merchantId: otherId, name: 'Not a customer' },
      idempotencyKey: newKey(),
    });
    const names = ['c1', 'c2', 'c3', 'c4', 'c5'];
    for (const name of names) {
      await api('POST', '/customers', {
        body: { merchantId: otherId, name, email: `${name}@example.com` },
        idempotencyKey: newKey(),
      });
    }
    const { items, pages } = await allPages(api, '/customers', { merchantId: otherId, limit: 2 });
    expect(items.map((item) => item.name)).toEqual([...names].reverse());
    expect(pages).toBe(3);
  });

  it('returns an empty page for a merchant without customers', async () => {
    const { merchantId: otherId, api } = await t.anotherMerchant();
    const result = await api('GET', '/customers', { query: { merchantId: otherId } });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ items: [], page: { hasMore: false } });
  });

  it("refuses a tampered cursor, another merchant's cursor and another list's cursor with 400", async () => {
    await createCustomer({ merchantId, name: 'k1', email: 'k1@example.com' });
    await createCustomer({ merchantId, name: 'k2', email: 'k2@example.com' });
    const first = await t.api('GET', '/customers', { query: { merchantId, limit: 1 } });
    const cursor: string = first.body.page.nextCursor;
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'BB' : 'AA'}`;
    const bad = await t.api('GET', '/customers', { query: { merchantId, cursor: tampered } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([
      { path: 'cursor', message: 'must be a nextCursor of this list, with the same filters.' },
    ]);
    const other = await t.anotherMerchant();
    const foreign = await other.api('GET', '/customers', { query: { merchantId: other.merchantId, cursor } });
    expect(foreign.status).toBe(400);
    const productsList = await t.api('GET', '/catalog/products', { query: { merchantId, cursor } });
    expect(productsList.status).toBe(400);
  });

  it.each(refusedLimits)('returns 400 for a limit of %s, outside 1–100', async (limit, message) => {
    const result = await t.api('GET', '/customers', { query: { merchantId, limit } });
    expect(result.status).toBe(400);
    expect(result.body.error.details).toEqual([{ path: 'limit', message }]);
  });
});
