import { describe, expect, it } from 'vitest';
import { InvalidFields } from '../../../functions/domain/errors';
import {
  applyPayment,
  type CatalogView,
  computeTotals,
  formatInvoiceNumber,
  invoicePaidPayload,
  invoiceSentPayload,
  issueInvoice,
  issueWithEvents,
  priceLineItems,
  resendInvoice,
  voidInvoice,
  withNewSlug,
} from '../../../functions/domain/invoice';
import { maxAmount } from '../../../functions/domain/money';
import { invoiceIn } from '../../support/domain-invoice';
import { expectInvalidState } from '../../support/rule-violations';
import { eventPayloadFields } from '../../support/spec-fields';

const catalog: CatalogView = {
  product: (id) =>
    ({ prod_tea: { name: 'Tea', active: true }, prod_old: { name: 'Old', active: false } })[id as 'prod_tea'],
  price: (id) =>
    ({
      price_tea: { productId: 'prod_tea', unitAmount: 1250, currency: 'USD' as const },
      price_tea_cad: { productId: 'prod_tea', unitAmount: 1700, currency: 'CAD' as const },
      price_old: { productId: 'prod_old', unitAmount: 100, currency: 'USD' as const },
      price_big: { productId: 'prod_tea', unitAmount: maxAmount, currency: 'USD' as const },
    })[id as 'price_tea'],
};

function problemsOf(run: () => unknown): readonly { path: string; message: string }[] {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidFields) return error.problems;
    throw error;
  }
  throw new Error('expected InvalidFields');
}

describe('formatInvoiceNumber', () => {
  it('zero-pads the sequence to six digits', () => {
    expect(formatInvoiceNumber(1)).toBe('INV-000001');
    expect(formatInvoiceNumber(123456)).toBe('INV-123456');
    expect(formatInvoiceNumber(1234567)).toBe('INV-1234567');
  });
});

describe('priceLineItems', () => {
  it('prices product charges from the price and defaults the description to the product name', () => {
    const lines = priceLineItems(
      [
        { kind: 'product_charge', productId: 'prod_tea', priceId: 'price_tea', quantity: 3 },
        {
          kind: 'product_charge',
          productId: 'prod_tea',
          priceId: 'price_tea',
          quantity: 1,
          description: 'Gift',
        },
        { kind: 'manual_adjustment', adjustmentType: 'tax', description: 'Sales tax', amount: 406 },
      ],
      'USD',
      catalog,
    );
    expect(lines).toEqual([
      {
        kind: 'product_charge',
        productId: 'prod_tea',
        priceId: 'price_tea',
        description: 'Tea',
        quantity: 3,
        unitAmount: 1250,
        lineTotal: 3750,
      },
      {
        kind: 'product_charge',
        productId: 'prod_tea',
        priceId: 'price_tea',
        description: 'Gift',
        quantity: 1,
        unitAmount: 1250,
        lineTotal: 1250,
      },
      {
        kind: 'manual_adjustment',
        adjustmentType: 'tax',
        description: 'Sales tax',
        quantity: 1,
        unitAmount: 406,
        lineTotal: 406,
      },
    ]);
  });

  it('names every bad line on its own field, worded as the API words it', () => {
    const problems = problemsOf(() =>
      priceLineItems(
        [
          { kind: 'product_charge', productId: 'prod_none', priceId: 'price_tea', quantity: 1 },
          { kind: 'product_charge', productId: 'prod_old', priceId: 'price_old', quantity: 1 },
          { kind: 'product_charge', productId: 'prod_tea', priceId: 'price_old', quantity: 1 },
          { kind: 'product_charge', productId: 'prod_tea', priceId: 'price_tea_cad', quantity: 1 },
          { kind: 'product_charge', productId: 'prod_tea', priceId: 'price_big', quantity: 2 },
        ],
        'USD',
        catalog,
      ),
    );
    expect(problems).toEqual([
      { path: 'lineItems.0.productId', message: 'must name an existing product.' },
      { path: 'lineItems.0.priceId', message: 'must name a price of this product.' },
      { path: 'lineItems.1.productId', message: 'must name an active product.' },
      { path: 'lineItems.2.priceId', message: 'must name a price of this product.' },
      { path: 'lineItems.3.priceId', message: 'must name a price in USD; this price is in CAD.' },
      { path: 'lineItems.4.quantity', message: 'must keep the line total at most 9007199254740991.' },
    ]);
  });
});

describe('computeTotals', () => {
  it('sums product charges into productTotal and everything into total', () => {
    const lines = priceLineItems(
      [
        { kind: 'product_charge', productId: 'prod_tea', priceId: 'price_tea', quantity: 2 },
        { kind: 'manual_adjustment', adjustmentType: 'shipping', description: 'Post', amount: 500 },
        { kind: 'manual_adjustment', adjustmentType: 'fee', description: 'Fee', amount: 0 },
      ],
      'USD',
      catalog,
    );
    expect(computeTotals(lines, 'USD')).toEqual({
      productTotal: { amount: 2500, currency: 'USD' },
      total: { amount: 3000, currency: 'USD' },
      amountPaid: { amount: 0, currency: 'USD' },
      amountRemaining: { amount: 3000, currency: 'USD' },
    });
  });

  it('refuses a total past the integer bound with a 400 on lineItems', () => {
    const lines = priceLineItems(
      [
        { kind: 'product_charge', productId: 'prod_tea', priceId: 'price_big', quantity: 1 },
        { kind: 'manual_adjustment', adjustmentType: 'tax', description: 'Tax', amount: 1 },
      ],
      'USD',
      catalog,
    );
    expect(problemsOf(() => computeTotals(lines, 'USD'))).toEqual([
      { path: 'lineItems', message: 'must keep the invoice total at most 9007199254740991.' },
    ]);
  });
});

const now = '2026-11-22T12:00:00.000Z';

const allStatuses = ['draft', 'issued', 'partially_paid', 'paid', 'void'] as const;

describe('transitions', () => {
  it.each(['draft', 'issued'] as const)('voids a %s invoice with a new revision', (status) => {
    expect(voidInvoice(invoiceIn(status), now)).toMatchObject({
      status: 'void',
      currentRevisionNumber: 4,
      updatedAt: now,
    });
  });

  it.each(allStatuses.filter((status) => status !== 'draft' && status !== 'issued'))(
    'refuses to void a %s invoice',
    (status) => expectInvalidState(() => voidInvoice(invoiceIn(status), now)),
  );

  it('issues only a draft', () => {
    expect(issueInvoice(invoiceIn('draft'), now).status).toBe('issued');
    for (const status of allStatuses.filter((s) => s !== 'draft')) {
      expectInvalidState(() => issueInvoice(invoiceIn(status), now));
    }
  });

  it('issues an invoice with something to pay with one InvoiceSent, and leaves it issued', () => {
    const ids = ['evt_1', 'evt_2'];
    const { next, events } = issueWithEvents(invoiceIn('draft'), now, () => ids.shift() ?? '');
    expect(next).toMatchObject({ status: 'issued', currentRevisionNumber: 4 });
    expect(next).not.toHaveProperty('paidAt');
    expect(events.map((event) => [event.eventType, event.eventId, event.objectVersion])).toEqual([
      ['invoices.InvoiceSent', 'evt_1', 4],
    ]);
  });

  it('pays an invoice of total 0 as it issues it: InvoiceSent, then InvoicePaid of 0 a revision later', () => {
    const ids = ['evt_1', 'evt_2'];
    const { next, events } = issueWithEvents(invoiceIn('draft', 0), now, () => ids.shift() ?? '');
    expect(next).toMatchObject({
      status: 'paid',
      paidAt: now,
      updatedAt: now,
      currentRevisionNumber: 5,
      amountPaid: { amount: 0, currency: 'USD' },
      amountRemaining: { amount: 0, currency: 'USD' },
    });
    expect(events.map((event) => [event.eventType, event.eventId, event.objectVersion])).toEqual([
      ['invoices.InvoiceSent', 'evt_1', 4],
      ['invoices.InvoicePaid', 'evt_2', 5],
    ]);
    expect(events[1]?.payload).toMatchObject({ amount: 0, currency: 'USD', paidAt: now });
    for (const status of allStatuses.filter((s) => s !== 'draft')) {
      expectInvalidState(() => issueWithEvents(invoiceIn(status, 0), now, () => 'evt_x'));
    }
  });

  it('resends issued and partially paid invoices only', () => {
    expect(resendInvoice(invoiceIn('issued'), now)).toMatchObject({
      status: 'issued',
      currentRevisionNumber: 4,
    });
    expect(resendInvoice(invoiceIn('partially_paid', 1000, 10), now).status).toBe('partially_paid');
    for (const status of ['draft', 'paid', 'void'] as const)
      expectInvalidState(() => resendInvoice(invoiceIn(status), now));
  });

  it('moves to partially_paid, then paid with paidAt, and refuses overpayment', () => {
    const partly = applyPayment(invoiceIn('issued', 1000), 400, now);
    expect(partly).toMatchObject({
      status: 'partially_paid',
      amountPaid: { amount: 400, currency: 'USD' },
      amountRemaining: { amount: 600, currency: 'USD' },
    });
    expect(partly.paidAt).toBeUndefined();
    const paid = applyPayment(partly, 600, now);
    expect(paid).toMatchObject({
      status: 'paid',
      paidAt: now,
      amountRemaining: { amount: 0, currency: 'USD' },
    });
    expectInvalidState(() => applyPayment(partly, 601, now));
    for (const status of ['draft', 'paid', 'void'] as const)
      expectInvalidState(() => applyPayment(invoiceIn(status), 1, now));
  });

  it.each([0, -1, 0.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])(
    'refuses a payment of %s as a 400 on amount, whatever the schema let through',
    (amount) => {
      expect(() => applyPayment(invoiceIn('issued', 1000), amount, now)).toThrow(InvalidFields);
    },
  );

  it('rotates the slug with a new revision and nothing else', () => {
    const invoice = invoiceIn('issued');
    expect(withNewSlug(invoice, 'new', now)).toEqual({
      ...invoice,
      invoiceUrlSlug: 'new',
      currentRevisionNumber: 4,
      updatedAt: now,
    });
  });
});

describe('event payloads', () => {
  it('InvoiceSent carries exactly the documented fields', () => {
    const payload = invoiceSentPayload(invoiceIn('issued'), true, now);
    expect(Object.keys(payload).sort()).toEqual(eventPayloadFields['invoices.InvoiceSent']);
    expect(payload).toEqual({
      invoiceId: 'inv_1',
      merchantId: 'mer_1',
      customerId: 'cust_1',
      invoiceNumber: 'INV-000001',
      resend: true,
      occurredAt: now,
    });
  });

  it('InvoicePaid carries exactly the documented fields', () => {
    const paid = applyPayment(invoiceIn('issued', 1000), 1000, now);
    expect(Object.keys(invoicePaidPayload(paid)).sort()).toEqual(eventPayloadFields['invoices.InvoicePaid']);
    expect(invoicePaidPayload(paid)).toEqual({
      invoiceId: 'inv_1',
      merchantId: 'mer_1',
      customerId: 'cust_1',
      invoiceNumber: 'INV-000001',
      amount: 1000,
      currency: 'USD',
      paidAt: now,
    });
  });
});
