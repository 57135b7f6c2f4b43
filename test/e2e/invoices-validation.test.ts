import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../functions/domain/ids';
import { e2eInvoiceFile, merchantId, refs, t } from '../support/e2e-test';
import {
  adjustmentLine,
  createInvoice,
  expectOk,
  type InvoiceRefs,
  invoiceBody,
  invoiceWrites,
  productLine,
} from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { isoTimestamp } from '../support/iso-timestamp';
import { detailPaths, newKey } from '../support/local-runtime';

e2eInvoiceFile();

const maxAmount = 9007199254740991;

/** A product of this merchant with one price, made through the API. */
async function productWithPrice(name: string, unitAmount: number, currency = 'USD') {
  const product = expectOk(
    await t.api('POST', '/catalog/products', { body: { merchantId, name }, idempotencyKey: newKey() }),
  );
  const price = expectOk(
    await t.api('POST', `/catalog/products/${product.productId}/prices`, {
      body: { merchantId, unitAmount, currency },
      idempotencyKey: newKey(),
    }),
  );
  return { productId: product.productId as string, priceId: price.priceId as string };
}

/** Sends a create and checks: 400 validation_error, the details name exactly `paths`, nothing written. */
async function expectRejected(body: unknown, paths: string[]) {
  const before = invoiceWrites(await t.scanTable());
  const result = await createInvoice(t.api, body);
  expect(result.status, JSON.stringify(result.body)).toBe(400);
  expect(result.body.error.code).toBe('validation_error');
  expect(detailPaths(result.body)).toEqual([...paths].sort());
  expect(invoiceWrites(await t.scanTable())).toEqual(before);
  return result;
}

const sequenceOf = (invoiceNumber: string) => Number(invoiceNumber.slice('INV-'.length));

describe('POST /invoices validation', () => {
  describe('returns 400 validation_error naming the field, and writes nothing', () => {
    const adjustment = adjustmentLine(100);
    const cases: [string, (base: Record<string, unknown>) => Record<string, unknown>, string[]][] = [
      ['a missing currency', ({ currency: _, ...base }) => base, ['currency']],
      ['an unsupported currency EUR', (base) => ({ ...base, currency: 'EUR' }), ['currency']],
      ['a lowercase currency usd', (base) => ({ ...base, currency: 'usd' }), ['currency']],
      ['missing lineItems', ({ lineItems: _, ...base }) => base, ['lineItems']],
      ['empty lineItems', (base) => ({ ...base, lineItems: [] }), ['lineItems']],
      [
        '101 line items',
        (base) => ({ ...base, lineItems: Array.from({ length: 101 }, () => adjustment) }),
        ['lineItems'],
      ],
      [
        'a line of an unknown kind',
        (base) => ({ ...base, lineItems: [{ kind: 'discount', amount: 100 }] }),
        ['lineItems.0.kind'],
      ],
      [
        'a quantity of 0',
        (base) => ({ ...base, lineItems: [productLine(refs, 0)] }),
        ['lineItems.0.quantity'],
      ],
      [
        'a quantity of 1,000,001',
        (base) => ({ ...base, lineItems: [productLine(refs, 1_000_001)] }),
        ['lineItems.0.quantity'],
      ],
      [
        'a fractional quantity',
        (base) => ({ ...base, lineItems: [productLine(refs, 1.5)] }),
        ['lineItems.0.quantity'],
      ],
      [
        'a negative adjustment amount',
        (base) => ({ ...base, lineItems: [productLine(refs), adjustmentLine(-1)] }),
        ['lineItems.1.amount'],
      ],
      [
        'an adjustment amount past 9007199254740991',
        (base) => ({ ...base, lineItems: [adjustmentLine(maxAmount + 1)] }),
        ['lineItems.0.amount'],
      ],
      [
        'an adjustment without a description',
        (base) => ({ ...base, lineItems: [{ kind: 'manual_adjustment', adjustmentType: 'fee', amount: 5 }] }),
        ['lineItems.0.description'],
      ],
      [
        'an unknown adjustmentType',
        (base) => ({ ...base, lineItems: [adjustmentLine(5, 'discount')] }),
        ['lineItems.0.adjustmentType'],
      ],
      [
        'a product line description over 500 characters',
        (base) => ({ ...base, lineItems: [productLine(refs, 1, { description: 'x'.repeat(501) })] }),
        ['lineItems.0.description'],
      ],
      ['notes of 2001 characters', (base) => ({ ...base, notes: 'n'.repeat(2001) }), ['notes']],
      [
        '11 additional notification emails',
        (base) => ({
          ...base,
          additionalNotificationEmails: Array.from({ length: 11 }, (_, i) => `copy${i}@example.com`),
        }),
        ['additionalNotificationEmails'],
      ],
      [
        'no accepted payment method',
        (base) => ({ ...base, acceptedPaymentMethods: [] }),
        ['acceptedPaymentMethods'],
      ],
      [
        'an unknown payment method',
        (base) => ({ ...base, acceptedPaymentMethods: ['cash'] }),
        ['acceptedPaymentMethods.0'],
      ],
      [
        'a payment method given twice',
        (base) => ({ ...base, acceptedPaymentMethods: ['card', 'bank_account', 'card'] }),
        ['acceptedPaymentMethods'],
      ],
      [
        'metadata with 51 keys',
        (base) => ({
          ...base,
          metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`key${i}`, 'v'])),
        }),
        ['metadata'],
      ],
      [
        'a metadata key of 41 characters',
        (base) => ({ ...base, metadata: { ['k'.repeat(41)]: 'v' } }),
        [`metadata.${'k'.repeat(41)}`],
      ],
      // Once a 500 (the marshaller refused it) and a key silently dropped.
      [
        'the metadata key constructor',
        (base) => ({ ...base, metadata: { constructor: 'v' } }),
        ['metadata.constructor'],
      ],
      [
        'the metadata key __proto__',
        (base) => ({ ...base, metadata: { ['__proto__']: 'v' } }),
        ['metadata.__proto__'],
      ],
      [
        'a metadata key with a space',
        (base) => ({ ...base, metadata: { 'order id': 'v' } }),
        ['metadata.order id'],
      ],
      [
        'a metadata value of 501 characters',
        (base) => ({ ...base, metadata: { note: 'v'.repeat(501) } }),
        ['metadata.note'],
      ],
      [
        'a metadata value that is not a string',
        (base) => ({ ...base, metadata: { count: 3 } }),
        ['metadata.count'],
      ],
      ['a dueDate without a time', (base) => ({ ...base, dueDate: '2026-12-01' }), ['dueDate']],
      [
        'a dueDate with an offset instead of Z',
        (base) => ({ ...base, dueDate: '2026-12-01T00:00:00+01:00' }),
        ['dueDate'],
      ],
      ['an unknown top-level field', (base) => ({ ...base, discount: 10 }), ['discount']],
      [
        'an unknown field inside a line item',
        (base) => ({ ...base, lineItems: [productLine(refs, 1, { unitAmount: 1 })] }),
        ['lineItems.0.unitAmount'],
      ],
      ['a malformed customerId', (base) => ({ ...base, customerId: 'cust_nope' }), ['customerId']],
      [
        'a priceId of the wrong prefix',
        (base) => ({ ...base, lineItems: [productLine(refs, 1, { priceId: refs.productId })] }),
        ['lineItems.0.priceId'],
      ],
    ];
    for (const [label, build, paths] of cases) {
      it(`for ${label}`, async () => {
        await expectRejected(build(invoiceBody(merchantId, refs)), paths);
      });
    }

    it('accepts metadata keys of letters, digits and _ . : -, and returns them as sent', async () => {
      const metadata = { order_id: 'A-17', 'erp.ref:v2': 'x', 'Z-9': '', ['k'.repeat(40)]: 'v' };
      const created = await createInvoice(t.api, invoiceBody(merchantId, refs, { metadata }));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.metadata).toEqual(metadata);
    });

    for (const email of [
      '.ana@example.com',
      'ana..b@example.com',
      'ana@example.c',
      'ana@localhost',
      'no-at-sign',
    ]) {
      it(`for the additional notification email ${email}`, async () => {
        await expectRejected(
          invoiceBody(merchantId, refs, { additionalNotificationEmails: ['ok@example.com', email] }),
          ['additionalNotificationEmails.1'],
        );
      });
    }

    it('for a bad email at index 0, naming that entry', async () => {
      await expectRejected(invoiceBody(merchantId, refs, { additionalNotificationEmails: ['no-at-sign'] }), [
        'additionalNotificationEmails.0',
      ]);
    });

    it('for a line total past 9007199254740991, on the quantity', async () => {
      const huge = await productWithPrice('Huge', maxAmount);
      await expectRejected(
        invoiceBody(merchantId, refs, { lineItems: [productLine({ ...refs, ...huge }, 2)] }),
        ['lineItems.0.quantity'],
      );
    });

    it('for lines whose sum passes 9007199254740991, on lineItems', async () => {
      const huge = await productWithPrice('Huge too', maxAmount);
      await expectRejected(
        invoiceBody(merchantId, refs, {
          lineItems: [productLine({ ...refs, ...huge }, 1), adjustmentLine(1)],
        }),
        ['lineItems'],
      );
    });

    it('for every problem at once, one details entry each', async () => {
      await expectRejected(
        {
          merchantId,
          customerId: refs.customerId,
          currency: 'EUR',
          lineItems: [productLine(refs, 0)],
          notes: 'n'.repeat(2001),
          colour: 'green',
        },
        ['currency', 'lineItems.0.quantity', 'notes', 'colour'],
      );
    });
  });

  describe('accepts the bounds', () => {
    it('accepts notes of exactly 2000 characters', async () => {
      const result = await createInvoice(t.api, invoiceBody(merchantId, refs, { notes: 'n'.repeat(2000) }));
      expect(result.status).toBe(201);
      expect(result.body.notes).toHaveLength(2000);
    });

    it('accepts exactly 10 additional notification emails', async () => {
      const emails = Array.from({ length: 10 }, (_, i) => `copy${i}@example.com`);
      const result = await createInvoice(
        t.api,
        invoiceBody(merchantId, refs, { additionalNotificationEmails: emails }),
      );
      expect(result.status).toBe(201);
      expect(result.body.additionalNotificationEmails).toEqual(emails);
    });

    it('accepts 100 line items, quantity 1,000,000, amount 9007199254740991 and 50 metadata keys', async () => {
      const metadata = Object.fromEntries(
        Array.from({ length: 50 }, (_, i) => [`${i}`.padStart(40, 'k'), 'v'.repeat(500)]),
      );
      const lines = [
        productLine(refs, 1_000_000),
        ...Array.from({ length: 98 }, () => adjustmentLine(0, 'other', 'Nothing')),
        adjustmentLine(maxAmount - 1250 * 1_000_000, 'fee', 'Everything else'),
      ];
      const result = await createInvoice(
        t.api,
        invoiceBody(merchantId, refs, { lineItems: lines, metadata }),
      );
      expect(result.status, JSON.stringify(result.body)).toBe(201);
      expect(result.body.lineItems).toHaveLength(100);
      expect(result.body.total.amount).toBe(maxAmount);
      expect(result.body.metadata).toEqual(metadata);
    });
  });

  describe('defaults', () => {
    it('defaults acceptedPaymentMethods to card and bank_account and additionalNotificationEmails to []', async () => {
      const result = await createInvoice(t.api, invoiceBody(merchantId, refs));
      expect(result.status).toBe(201);
      expect(result.body.acceptedPaymentMethods).toEqual(['card', 'bank_account']);
      expect(result.body.additionalNotificationEmails).toEqual([]);
      expect(result.body).not.toHaveProperty('notes');
      expect(result.body).not.toHaveProperty('metadata');
      expect(result.body).not.toHaveProperty('dueDate');
      expect(result.body).not.toHaveProperty('paidAt');
    });

    it('keeps a single accepted payment method as given', async () => {
      const result = await createInvoice(
        t.api,
        invoiceBody(merchantId, refs, { acceptedPaymentMethods: ['bank_account'] }),
      );
      expect(result.status).toBe(201);
      expect(result.body.acceptedPaymentMethods).toEqual(['bank_account']);
    });
  });
});

describe('POST /invoices ids inside the body', () => {
  let foreign: InvoiceRefs;
  beforeAll(async () => {
    const other = await t.anotherMerchant();
    foreign = await invoiceFixtures(other.api, other.merchantId);
  });

  const noCustomer = 'must name an existing customer.';
  const noProduct = 'must name an existing product.';
  const noPrice = 'must name a price of this product.';
  const cases: [string, () => Record<string, unknown>, string, string][] = [
    [
      'an unknown customerId',
      () => invoiceBody(merchantId, { ...refs, customerId: newId('cust') }),
      'customerId',
      noCustomer,
    ],
    [
      'an unknown productId',
      () =>
        invoiceBody(merchantId, refs, { lineItems: [productLine({ ...refs, productId: newId('prod') })] }),
      'lineItems.0.productId',
      noProduct,
    ],
    [
      'an unknown priceId',
      () => invoiceBody(merchantId, refs, { lineItems: [productLine({ ...refs, priceId: newId('price') })] }),
      'lineItems.0.priceId',
      noPrice,
    ],
    [
      "another merchant's customer",
      () => invoiceBody(merchantId, { ...refs, customerId: foreign.customerId }),
      'customerId',
      noCustomer,
    ],
    [
      "another merchant's product",
      () =>
        invoiceBody(merchantId, refs, {
          lineItems: [productLine({ ...refs, productId: foreign.productId })],
        }),
      'lineItems.0.productId',
      noProduct,
    ],
    [
      "another merchant's price",
      () =>
        invoiceBody(merchantId, refs, { lineItems: [productLine({ ...refs, priceId: foreign.priceId })] }),
      'lineItems.0.priceId',
      noPrice,
    ],
    [
      "another merchant's product and price together",
      () =>
        invoiceBody(merchantId, refs, {
          lineItems: [productLine({ ...refs, productId: foreign.productId, priceId: foreign.priceId })],
        }),
      'lineItems.0.productId',
      noProduct,
    ],
  ];
  for (const [label, build, path, message] of cases) {
    it(`returns 400 with a details entry on ${path} for ${label}, never 404, and writes nothing`, async () => {
      const before = invoiceWrites(await t.scanTable());
      const result = await createInvoice(t.api, build());
      expect(result.status).toBe(400);
      expect(result.body.error.code).toBe('validation_error');
      expect(result.body.error.details).toContainEqual({ path, message });
      expect(invoiceWrites(await t.scanTable())).toEqual(before);
    });
  }

  it('gives the same answer for an unknown and a foreign customer, so nothing hints the id exists', async () => {
    const unknown = await createInvoice(
      t.api,
      invoiceBody(merchantId, { ...refs, customerId: newId('cust') }),
    );
    const other = await createInvoice(
      t.api,
      invoiceBody(merchantId, { ...refs, customerId: foreign.customerId }),
    );
    expect(other.body.error.details).toEqual(unknown.body.error.details);
    expect(other.body.error.message).toBe(unknown.body.error.message);
  });

  it('returns 400 on productId for an inactive product', async () => {
    const inactive = await productWithPrice('Retired tea', 800);
    expectOk(
      await t.api('PUT', `/catalog/products/${inactive.productId}/status`, {
        body: { merchantId, status: 'inactive' },
        idempotencyKey: newKey(),
      }),
    );
    const result = await expectRejected(
      invoiceBody(merchantId, refs, { lineItems: [productLine({ ...refs, ...inactive })] }),
      ['lineItems.0.productId'],
    );
    expect(result.body.error.details).toEqual([
      { path: 'lineItems.0.productId', message: 'must name an active product.' },
    ]);
  });

  it('returns 400 on priceId for a CAD price on a USD invoice', async () => {
    const cad = expectOk(
      await t.api('POST', `/catalog/products/${refs.productId}/prices`, {
        body: { merchantId, unitAmount: 1600, currency: 'CAD' },
        idempotencyKey: newKey(),
      }),
    );
    const result = await expectRejected(
      invoiceBody(merchantId, refs, { lineItems: [productLine({ ...refs, priceId: cad.priceId })] }),
      ['lineItems.0.priceId'],
    );
    expect(result.body.error.details).toEqual([
      { path: 'lineItems.0.priceId', message: 'must name a price in USD; this price is in CAD.' },
    ]);
    const asCad = await createInvoice(
      t.api,
      invoiceBody(merchantId, refs, {
        currency: 'CAD',
        lineItems: [productLine({ ...refs, priceId: cad.priceId })],
      }),
    );
    expect(asCad.status).toBe(201);
    expect(asCad.body.total).toEqual({ amount: 1600, currency: 'CAD' });
  });

  it("returns 400 on priceId for a price of another product than the line's", async () => {
    const otherProduct = await productWithPrice('Black tea', 700);
    await expectRejected(
      invoiceBody(merchantId, refs, { lineItems: [productLine({ ...refs, priceId: otherProduct.priceId })] }),
      ['lineItems.0.priceId'],
    );
  });

  it('prices lines of 50 distinct products, more keys than one BatchGetItem reads', async () => {
    const products = await Promise.all(
      Array.from({ length: 50 }, (_, i) => productWithPrice(`Item ${i}`, i + 1)),
    );
    const lines = products.map((product) => productLine({ ...refs, ...product }, 2));
    const result = await createInvoice(t.api, invoiceBody(merchantId, refs, { lineItems: lines }));
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(result.body.lineItems.map((line: { lineTotal: number }) => line.lineTotal)).toEqual(
      products.map((_, i) => 2 * (i + 1)),
    );
    expect(result.body.productTotal.amount).toBe(50 * 51);
    const unknown = await createInvoice(
      t.api,
      invoiceBody(merchantId, refs, {
        lineItems: [...lines.slice(0, 49), productLine({ ...refs, priceId: newId('price') })],
      }),
    );
    expect(unknown.status).toBe(400);
    expect(detailPaths(unknown.body)).toEqual(['lineItems.49.priceId']);
  });

  it('names each bad line by its index', async () => {
    await expectRejected(
      invoiceBody(merchantId, refs, {
        lineItems: [productLine(refs), adjustmentLine(5), productLine({ ...refs, priceId: newId('price') })],
      }),
      ['lineItems.2.priceId'],
    );
  });
});

describe('POST /invoices success', () => {
  it('returns 201 with a draft, its number, and totals for a mix of lines', async () => {
    const mug = await productWithPrice('Mug', 999);
    const key = newKey();
    const body = invoiceBody(merchantId, refs, {
      lineItems: [
        productLine(refs, 2),
        productLine({ ...refs, ...mug }, 3, { description: 'Blue mug' }),
        adjustmentLine(406, 'tax', 'Sales tax'),
        adjustmentLine(500, 'shipping', 'Shipping'),
        adjustmentLine(0, 'fee', 'Handling'),
      ],
      dueDate: '2026-12-01T00:00:00Z',
      notes: 'Thanks',
      metadata: { order: 'A-1' },
      additionalNotificationEmails: ['books@example.com'],
    });
    const result = await createInvoice(t.api, body, key);
    expect(result.status).toBe(201);
    expect(result.headers.get('idempotent-replayed')).toBeNull();
    const usd = (amount: number) => ({ amount, currency: 'USD' });
    expect(result.body).toEqual({
      invoiceId: expect.stringMatching(/^inv_[0-7][0-9a-z]{25}$/),
      invoiceNumber: expect.stringMatching(/^INV-\d{6}$/),
      invoiceUrlSlug: expect.stringMatching(/^[A-Za-z0-9_-]{22,}$/),
      idempotencyKey: key,
      merchantId,
      customerId: refs.customerId,
      currentRevisionNumber: 1,
      status: 'draft',
      currency: 'USD',
      lineItems: [
        {
          kind: 'product_charge',
          productId: refs.productId,
          priceId: refs.priceId,
          description: 'Green tea',
          quantity: 2,
          unitAmount: 1250,
          lineTotal: 2500,
        },
        {
          kind: 'product_charge',
          productId: mug.productId,
          priceId: mug.priceId,
          description: 'Blue mug',
          quantity: 3,
          unitAmount: 999,
          lineTotal: 2997,
        },
        {
          kind: 'manual_adjustment',
          adjustmentType: 'tax',
          description: 'Sales tax',
          quantity: 1,
          unitAmount: 406,
          lineTotal: 406,
        },
        {
          kind: 'manual_adjustment',
          adjustmentType: 'shipping',
          description: 'Shipping',
          quantity: 1,
          unitAmount: 500,
          lineTotal: 500,
        },
        {
          kind: 'manual_adjustment',
          adjustmentType: 'fee',
          description: 'Handling',
          quantity: 1,
          unitAmount: 0,
          lineTotal: 0,
        },
      ],
      productTotal: usd(5497),
      total: usd(6403),
      amountPaid: usd(0),
      amountRemaining: usd(6403),
      acceptedPaymentMethods: ['card', 'bank_account'],
      additionalNotificationEmails: ['books@example.com'],
      createdAt: expect.stringMatching(isoTimestamp),
      updatedAt: result.body.createdAt,
      dueDate: '2026-12-01T00:00:00Z',
      notes: 'Thanks',
      metadata: { order: 'A-1' },
    });
    const invoiceId: string = result.body.invoiceId;
    expect(result.body.invoiceUrlSlug).not.toContain(invoiceId.slice('inv_'.length));
    const fetched = await t.api('GET', `/invoices/${invoiceId}`, { query: { merchantId } });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(result.body);
    const stored = (await t.scanTable()).filter(
      (item) => item.entityType === 'Invoice' && item.invoiceId === invoiceId,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject(result.body);
  });

  it('numbers invoices one after another and gives each a different slug', async () => {
    const first = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs)));
    const second = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs)));
    expect(sequenceOf(second.invoiceNumber)).toBe(sequenceOf(first.invoiceNumber) + 1);
    expect(second.invoiceUrlSlug).not.toBe(first.invoiceUrlSlug);
    expect(second.invoiceId).not.toBe(first.invoiceId);
  });

  it('writes the invoice, its counter, its slug lookup and the key record, and no slug in plaintext', async () => {
    const before = invoiceWrites(await t.scanTable());
    const created = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs)));
    const after = invoiceWrites(await t.scanTable());
    const added = after.filter((item) => !before.some((old) => old.PK === item.PK && old.SK === item.SK));
    expect(added.map((item) => item.entityType).sort()).toEqual([
      'IdempotencyRecord',
      'Invoice',
      'InvoiceSlug',
    ]);
    const counter = after.find((item) => item.entityType === 'InvoiceNumberCounter');
    expect(counter?.value).toBe(sequenceOf(created.invoiceNumber));
    const slugItem = added.find((item) => item.entityType === 'InvoiceSlug');
    expect(slugItem).toMatchObject({ merchantId, invoiceId: created.invoiceId });
    expect(JSON.stringify(slugItem)).not.toContain(created.invoiceUrlSlug);
  });
});

describe('POST /invoices idempotency', () => {
  it('replays the same body with Idempotent-Replayed: true and consumes no second number', async () => {
    const key = newKey();
    const body = invoiceBody(merchantId, refs, { notes: 'once' });
    const first = await createInvoice(t.api, body, key);
    expect(first.status).toBe(201);
    const before = invoiceWrites(await t.scanTable());
    const replay = await createInvoice(t.api, { notes: 'once', ...body }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(invoiceWrites(await t.scanTable())).toEqual(before);
    const next = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs)));
    expect(sequenceOf(next.invoiceNumber)).toBe(sequenceOf(first.body.invoiceNumber) + 1);
  });

  it('makes one invoice of 10 concurrent identical creates, all answered with its body', async () => {
    const key = newKey();
    const body = invoiceBody(merchantId, refs, { notes: 'concurrent' });
    const results = await Promise.all(Array.from({ length: 10 }, () => createInvoice(t.api, body, key)));
    expect(results.map((result) => result.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((result) => result.body.invoiceId)).size).toBe(1);
    expect(results.filter((result) => result.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    const stored = (await t.scanTable()).filter(
      (item) => item.entityType === 'Invoice' && item.idempotencyKey === key,
    );
    expect(stored).toHaveLength(1);
  });

  it('numbers 10 concurrent creates without a gap or a duplicate', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => createInvoice(t.api, invoiceBody(merchantId, refs))),
    );
    expect(results.map((result) => result.status)).toEqual(Array(10).fill(201));
    const sequences = results.map((result) => sequenceOf(result.body.invoiceNumber)).sort((a, b) => a - b);
    const lowest = sequences[0] ?? 0;
    expect(sequences).toEqual(Array.from({ length: 10 }, (_, i) => lowest + i));
    const counter = (await t.scanTable()).find((item) => item.entityType === 'InvoiceNumberCounter');
    expect(counter?.value).toBe(lowest + 9);
  });

  it('returns 422 idempotency_key_reused for the same key with another body, and writes nothing', async () => {
    const key = newKey();
    expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs), key));
    const before = invoiceWrites(await t.scanTable());
    const result = await createInvoice(t.api, invoiceBody(merchantId, refs, { notes: 'changed' }), key);
    expect(result.status).toBe(422);
    expect(result.body.error.code).toBe('idempotency_key_reused');
    expect(invoiceWrites(await t.scanTable())).toEqual(before);
  });

  it('replays a create after its product went inactive, and refuses another body with 422', async () => {
    const line = await productWithPrice('Soon inactive', 700);
    const key = newKey();
    const body = invoiceBody(merchantId, { ...refs, ...line });
    const first = await createInvoice(t.api, body, key);
    expect(first.status).toBe(201);
    const inactive = await t.api('PUT', `/catalog/products/${line.productId}/status`, {
      body: { merchantId, status: 'inactive' },
      idempotencyKey: newKey(),
    });
    expect(inactive.status).toBe(200);
    const replay = await createInvoice(t.api, body, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const reused = await createInvoice(
      t.api,
      invoiceBody(merchantId, { ...refs, ...line }, { notes: 'x' }),
      key,
    );
    expect(reused.status).toBe(422);
  });

  it('does not store a 400: the same key creates the invoice once the body is fixed', async () => {
    const key = newKey();
    expect((await createInvoice(t.api, invoiceBody(merchantId, refs, { currency: 'EUR' }), key)).status).toBe(
      400,
    );
    const fixed = await createInvoice(t.api, invoiceBody(merchantId, refs), key);
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('returns 400 idempotency_key_required without an Idempotency-Key, and writes nothing', async () => {
    const before = invoiceWrites(await t.scanTable());
    const result = await t.api('POST', '/invoices', { body: invoiceBody(merchantId, refs) });
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe('idempotency_key_required');
    expect(invoiceWrites(await t.scanTable())).toEqual(before);
  });
});

describe('POST /invoices merchant scope', () => {
  it('returns 403 forbidden for another merchantId in the body, and writes nothing', async () => {
    const other = await t.anotherMerchant();
    const before = invoiceWrites(await t.scanTable());
    const result = await createInvoice(t.api, invoiceBody(other.merchantId, refs));
    expect(result.status).toBe(403);
    expect(result.body.error.code).toBe('forbidden');
    expect(invoiceWrites(await t.scanTable())).toEqual(before);
  });

  it('returns 400 on merchantId for a missing merchantId', async () => {
    const { merchantId: _, ...body } = invoiceBody(merchantId, refs);
    await expectRejected(body, ['merchantId']);
  });
});
