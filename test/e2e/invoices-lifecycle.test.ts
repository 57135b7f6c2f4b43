import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../functions/domain/ids';
import { e2eInvoiceFile, merchantId, refs, t } from '../support/e2e-test';
import {
  createInvoice,
  expectOk,
  type InvoiceAction,
  invoiceAction,
  invoiceBody,
  invoiceEvents,
} from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { isoTimestamp } from '../support/iso-timestamp';
import { type ApiClient, detailPaths, newKey } from '../support/local-runtime';
import { allPages } from '../support/pages';

e2eInvoiceFile();

/** The default invoice: 2 × 1250 = 2500 USD. */
const total = 2500;

type State = 'draft' | 'issued' | 'partially_paid' | 'paid' | 'void';

const act = (
  invoiceId: string,
  action: InvoiceAction,
  fields: Record<string, unknown> = {},
  key = newKey(),
) => invoiceAction(t.api, merchantId, invoiceId, action, fields, key);

const getInvoice = async (invoiceId: string) =>
  expectOk(await t.api('GET', `/invoices/${invoiceId}`, { query: { merchantId } }));

/** A new invoice of this merchant, brought to `state` through the API; returns its latest body. */
async function invoiceIn(state: State): Promise<any> {
  let invoice = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs)));
  if (state === 'draft') return invoice;
  if (state === 'void') return expectOk(await act(invoice.invoiceId, 'void'));
  invoice = expectOk(await act(invoice.invoiceId, 'issue'));
  if (state === 'partially_paid')
    invoice = expectOk(await act(invoice.invoiceId, 'payments', { amount: 1000 }));
  if (state === 'paid') invoice = expectOk(await act(invoice.invoiceId, 'payments', { amount: total }));
  expect(invoice.status).toBe(state);
  return invoice;
}

async function eventsOf(invoiceId: string, type: 'invoices.InvoiceSent' | 'invoices.InvoicePaid') {
  return invoiceEvents(await t.scanTable(), invoiceId, type);
}

/** Every Event item of one invoice, whatever its type. */
async function allEventsOf(invoiceId: string) {
  return (await t.scanTable()).filter(
    (item: any) => item.entityType === 'Event' && item.payload?.invoiceId === invoiceId,
  );
}

let stranger: Promise<{ merchantId: string; api: ApiClient }> | undefined;
/** One other merchant with its own key, shared by the tests that need a second merchant. */
function anotherMerchant() {
  stranger ??= t.anotherMerchant();
  return stranger;
}

function expectInvalidState(result: { status: number; body: any }) {
  expect(result.status, JSON.stringify(result.body)).toBe(409);
  expect(result.body.error.code).toBe('invalid_state');
}

describe('POST /invoices/{id}/void', () => {
  it.each([
    ['a draft', 'draft'],
    ['an issued', 'issued'],
  ] as const)('voids %s invoice and raises the revision by one', async (_label, state) => {
    const invoice = await invoiceIn(state);
    const result = await act(invoice.invoiceId, 'void');
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      ...invoice,
      status: 'void',
      currentRevisionNumber: invoice.currentRevisionNumber + 1,
      updatedAt: expect.stringMatching(isoTimestamp),
    });
    expect(result.body.updatedAt >= invoice.updatedAt).toBe(true);
    expect(await getInvoice(invoice.invoiceId)).toEqual(result.body);
  });

  for (const state of ['partially_paid', 'paid', 'void'] as const) {
    it(`returns 409 invalid_state when the invoice is ${state}, and changes nothing`, async () => {
      const invoice = await invoiceIn(state);
      expectInvalidState(await act(invoice.invoiceId, 'void'));
      expect(await getInvoice(invoice.invoiceId)).toEqual(invoice);
    });
  }

  it('replays the first response for the same key even after the invoice changed', async () => {
    const draft = await invoiceIn('draft');
    const key = newKey();
    const first = await act(draft.invoiceId, 'void', {}, key);
    expect(first.status).toBe(200);
    const rotated = expectOk(await act(draft.invoiceId, 'rotate-url-slug'));
    expect(rotated.currentRevisionNumber).toBe(first.body.currentRevisionNumber + 1);
    const replay = await act(draft.invoiceId, 'void', {}, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    // The invoice as it was then, with the slug it has now: the old one would pay nothing.
    expect(replay.body).toEqual({ ...first.body, invoiceUrlSlug: rotated.invoiceUrlSlug });
    expect(await getInvoice(draft.invoiceId)).toEqual(rotated);
  });

  it('replays a stored 409 for the same key even after the invoice changed', async () => {
    const invoice = await invoiceIn('partially_paid');
    const key = newKey();
    const first = await act(invoice.invoiceId, 'void', {}, key);
    expectInvalidState(first);
    expectOk(await act(invoice.invoiceId, 'payments', { amount: invoice.amountRemaining.amount }));
    const replay = await act(invoice.invoiceId, 'void', {}, key);
    expect(replay.status).toBe(409);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('returns 409 invalid_state for a second void with a new key', async () => {
    const draft = await invoiceIn('draft');
    const voided = expectOk(await act(draft.invoiceId, 'void'));
    const again = await act(draft.invoiceId, 'void');
    expectInvalidState(again);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await getInvoice(draft.invoiceId)).toEqual(voided);
  });

  it('emits no event', async () => {
    const issued = await invoiceIn('issued');
    const before = await allEventsOf(issued.invoiceId);
    expectOk(await act(issued.invoiceId, 'void'));
    expect(await allEventsOf(issued.invoiceId)).toEqual(before);
  });
});

describe('POST /invoices/{id}/issue', () => {
  it('moves a draft to issued and writes one invoices.InvoiceSent event with resend false', async () => {
    const draft = await invoiceIn('draft');
    const result = await act(draft.invoiceId, 'issue');
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      ...draft,
      status: 'issued',
      currentRevisionNumber: 2,
      updatedAt: expect.stringMatching(isoTimestamp),
    });
    const events = await eventsOf(draft.invoiceId, 'invoices.InvoiceSent');
    expect(events).toHaveLength(1);
    expect(events[0].payload).toEqual({
      invoiceId: draft.invoiceId,
      merchantId,
      customerId: refs.customerId,
      invoiceNumber: draft.invoiceNumber,
      resend: false,
      occurredAt: result.body.updatedAt,
    });
    expect(events[0]).toMatchObject({
      entityType: 'Event',
      eventId: expect.stringMatching(/^evt_[0-7][0-9a-z]{25}$/),
      eventType: 'invoices.InvoiceSent',
      merchantId,
    });
    expect(await eventsOf(draft.invoiceId, 'invoices.InvoicePaid')).toEqual([]);
  });

  it('pays an invoice of total 0 as it issues it: paid with paidAt, InvoiceSent then InvoicePaid of 0', async () => {
    const free = [
      { kind: 'manual_adjustment', adjustmentType: 'other', description: 'Free trial', amount: 0 },
    ];
    const draft = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs, { lineItems: free })));
    expect(draft.total).toEqual({ amount: 0, currency: 'USD' });
    const result = await act(draft.invoiceId, 'issue');
    expect(result.status).toBe(200);
    // Two changes, issued and then paid, each a revision of its own: the events' object versions order them.
    expect(result.body).toEqual({
      ...draft,
      status: 'paid',
      amountPaid: { amount: 0, currency: 'USD' },
      amountRemaining: { amount: 0, currency: 'USD' },
      currentRevisionNumber: 3,
      updatedAt: expect.stringMatching(isoTimestamp),
      paidAt: result.body.updatedAt,
    });
    const [sent, paid] = [
      await eventsOf(draft.invoiceId, 'invoices.InvoiceSent'),
      await eventsOf(draft.invoiceId, 'invoices.InvoicePaid'),
    ];
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      objectVersion: 2,
      payload: { resend: false, occurredAt: result.body.paidAt },
    });
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ objectVersion: 3 });
    expect(paid[0].payload).toEqual({
      invoiceId: draft.invoiceId,
      merchantId,
      customerId: refs.customerId,
      invoiceNumber: draft.invoiceNumber,
      amount: 0,
      currency: 'USD',
      paidAt: result.body.paidAt,
    });
    // The event log lists them newest first: the payment after the issue.
    const log = expectOk(await t.api('GET', '/events', { query: { merchantId, objectId: draft.invoiceId } }));
    expect(log.items.map((event: { type: string }) => event.type)).toEqual([
      'invoices.InvoicePaid',
      'invoices.InvoiceSent',
    ]);
    expect(await getInvoice(draft.invoiceId)).toEqual(result.body);
    expectInvalidState(await act(draft.invoiceId, 'send'));
    expectInvalidState(await act(draft.invoiceId, 'void'));
  });

  for (const state of ['issued', 'partially_paid', 'paid', 'void'] as const) {
    it(`returns 409 invalid_state when the invoice is ${state}, and writes no event`, async () => {
      const invoice = await invoiceIn(state);
      const before = await allEventsOf(invoice.invoiceId);
      expectInvalidState(await act(invoice.invoiceId, 'issue'));
      expect(await getInvoice(invoice.invoiceId)).toEqual(invoice);
      expect(await allEventsOf(invoice.invoiceId)).toEqual(before);
    });
  }
});

describe('POST /invoices/{id}/send', () => {
  for (const state of ['issued', 'partially_paid'] as const) {
    it(`resends an invoice that is ${state}: one invoices.InvoiceSent with resend true per send`, async () => {
      const invoice = await invoiceIn(state);
      const first = await act(invoice.invoiceId, 'send');
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        ...invoice,
        currentRevisionNumber: invoice.currentRevisionNumber + 1,
        updatedAt: expect.stringMatching(isoTimestamp),
      });
      const afterOne = (await eventsOf(invoice.invoiceId, 'invoices.InvoiceSent')).filter(
        (event) => event.payload.resend === true,
      );
      expect(afterOne).toHaveLength(1);
      expect(afterOne[0].payload).toEqual({
        invoiceId: invoice.invoiceId,
        merchantId,
        customerId: refs.customerId,
        invoiceNumber: invoice.invoiceNumber,
        resend: true,
        occurredAt: first.body.updatedAt,
      });
      const second = expectOk(await act(invoice.invoiceId, 'send'));
      expect(second.currentRevisionNumber).toBe(invoice.currentRevisionNumber + 2);
      const sent = await eventsOf(invoice.invoiceId, 'invoices.InvoiceSent');
      expect(sent.map((event) => event.payload.resend)).toEqual([false, true, true]);
    });
  }

  for (const state of ['draft', 'paid', 'void'] as const) {
    it(`returns 409 invalid_state when the invoice is ${state}, and writes no event`, async () => {
      const invoice = await invoiceIn(state);
      const before = await allEventsOf(invoice.invoiceId);
      expectInvalidState(await act(invoice.invoiceId, 'send'));
      expect(await getInvoice(invoice.invoiceId)).toEqual(invoice);
      expect(await allEventsOf(invoice.invoiceId)).toEqual(before);
    });
  }

  it('replays a send with the same key without a second event', async () => {
    const invoice = await invoiceIn('issued');
    const key = newKey();
    const first = expectOk(await act(invoice.invoiceId, 'send', {}, key));
    const replay = await act(invoice.invoiceId, 'send', {}, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first);
    expect(await eventsOf(invoice.invoiceId, 'invoices.InvoiceSent')).toHaveLength(2);
    expect((await getInvoice(invoice.invoiceId)).currentRevisionNumber).toBe(first.currentRevisionNumber);
  });
});

describe('POST /invoices/{id}/payments', () => {
  it('acts once for one key however the path is spelled: a trailing slash or an escaped letter replays', async () => {
    const issued = await invoiceIn('issued');
    const key = newKey();
    const body = { merchantId, amount: 10 };
    const pay = (path: string) => t.api('POST', path, { body, idempotencyKey: key });
    const first = expectOk(await pay(`/invoices/${issued.invoiceId}/payments`));
    const escaped = `/invoices/%69${issued.invoiceId.slice(1)}/payments`;
    for (const path of [`/invoices/${issued.invoiceId}/payments/`, escaped]) {
      const again = await pay(path);
      expect(again.status, path).toBe(200);
      expect(again.headers.get('idempotent-replayed'), path).toBe('true');
      expect(again.body).toEqual(first);
    }
    expect((await getInvoice(issued.invoiceId)).amountPaid).toEqual({ amount: 10, currency: 'USD' });
  });

  it('records a partial payment: partially_paid with amountPaid and amountRemaining, no InvoicePaid', async () => {
    const issued = await invoiceIn('issued');
    const result = await act(issued.invoiceId, 'payments', { amount: 1000, reference: 'cheque 42' });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      ...issued,
      status: 'partially_paid',
      amountPaid: { amount: 1000, currency: 'USD' },
      amountRemaining: { amount: 1500, currency: 'USD' },
      currentRevisionNumber: issued.currentRevisionNumber + 1,
      updatedAt: expect.stringMatching(isoTimestamp),
    });
    expect(result.body).not.toHaveProperty('paidAt');
    expect(await eventsOf(issued.invoiceId, 'invoices.InvoicePaid')).toEqual([]);
  });

  it('completes the invoice: paid with paidAt and exactly one invoices.InvoicePaid', async () => {
    const partial = await invoiceIn('partially_paid');
    const result = await act(partial.invoiceId, 'payments', { amount: 1500 });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      ...partial,
      status: 'paid',
      amountPaid: { amount: total, currency: 'USD' },
      amountRemaining: { amount: 0, currency: 'USD' },
      currentRevisionNumber: partial.currentRevisionNumber + 1,
      updatedAt: expect.stringMatching(isoTimestamp),
      paidAt: result.body.updatedAt,
    });
    const paid = await eventsOf(partial.invoiceId, 'invoices.InvoicePaid');
    expect(paid).toHaveLength(1);
    expect(paid[0].payload).toEqual({
      invoiceId: partial.invoiceId,
      merchantId,
      customerId: refs.customerId,
      invoiceNumber: partial.invoiceNumber,
      amount: total,
      currency: 'USD',
      paidAt: result.body.paidAt,
    });
    expect(paid[0]).toMatchObject({ entityType: 'Event', eventType: 'invoices.InvoicePaid', merchantId });
    expectInvalidState(await act(partial.invoiceId, 'payments', { amount: 1 }));
    expect(await eventsOf(partial.invoiceId, 'invoices.InvoicePaid')).toHaveLength(1);
  });

  it('pays an issued invoice in full in one payment, with one InvoicePaid of the total', async () => {
    const issued = await invoiceIn('issued');
    const result = expectOk(await act(issued.invoiceId, 'payments', { amount: total }));
    expect(result.status).toBe('paid');
    expect(result.paidAt).toMatch(isoTimestamp);
    const paid = await eventsOf(issued.invoiceId, 'invoices.InvoicePaid');
    expect(paid.map((event) => event.payload.amount)).toEqual([total]);
  });

  for (const state of ['issued', 'partially_paid'] as const) {
    it(`returns 409 invalid_state for more than amountRemaining when the invoice is ${state}`, async () => {
      const invoice = await invoiceIn(state);
      expectInvalidState(
        await act(invoice.invoiceId, 'payments', { amount: invoice.amountRemaining.amount + 1 }),
      );
      expect(await getInvoice(invoice.invoiceId)).toEqual(invoice);
    });
  }

  for (const [label, amount] of [
    ['0', 0],
    ['-5', -5],
    ['1.5', 1.5],
    ['"100" (a string)', '100'],
    ['9007199254740992', 9007199254740992],
  ] as const) {
    it(`returns 400 validation_error on amount for an amount of ${label}, and changes nothing`, async () => {
      const invoice = await invoiceIn('issued');
      const result = await act(invoice.invoiceId, 'payments', { amount });
      expect(result.status).toBe(400);
      expect(result.body.error.code).toBe('validation_error');
      expect(detailPaths(result.body)).toEqual(['amount']);
      expect(await getInvoice(invoice.invoiceId)).toEqual(invoice);
    });
  }

  it('returns 400 on amount when it is missing, and on an unknown field', async () => {
    const invoice = await invoiceIn('issued');
    const result = await act(invoice.invoiceId, 'payments', { method: 'cash' });
    expect(result.status).toBe(400);
    expect(detailPaths(result.body)).toEqual(['amount', 'method']);
  });

  for (const state of ['draft', 'void'] as const) {
    it(`returns 409 invalid_state when the invoice is ${state}`, async () => {
      const invoice = await invoiceIn(state);
      expectInvalidState(await act(invoice.invoiceId, 'payments', { amount: 100 }));
      expect(await getInvoice(invoice.invoiceId)).toEqual(invoice);
    });
  }

  it('applies a payment once when it is replayed with the same key', async () => {
    const issued = await invoiceIn('issued');
    const key = newKey();
    const first = expectOk(await act(issued.invoiceId, 'payments', { amount: 700 }, key));
    const replay = await act(issued.invoiceId, 'payments', { amount: 700 }, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first);
    expect((await getInvoice(issued.invoiceId)).amountPaid.amount).toBe(700);
    const reused = await act(issued.invoiceId, 'payments', { amount: 800 }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
  });

  it('lets only one of two concurrent payments that together pass the total through', async () => {
    const issued = await invoiceIn('issued');
    const results = await Promise.all([
      act(issued.invoiceId, 'payments', { amount: 1500 }),
      act(issued.invoiceId, 'payments', { amount: 1500 }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    const current = await getInvoice(issued.invoiceId);
    expect(current.amountPaid.amount).toBe(1500);
    expect(current.currentRevisionNumber).toBe(issued.currentRevisionNumber + 1);
  });
});

describe('POST /invoices/{id}/rotate-url-slug', () => {
  it('returns a new slug and changes nothing else but the revision and updatedAt', async () => {
    const invoice = await invoiceIn('issued');
    const result = await act(invoice.invoiceId, 'rotate-url-slug');
    expect(result.status).toBe(200);
    expect(result.body.invoiceUrlSlug).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(result.body.invoiceUrlSlug).not.toBe(invoice.invoiceUrlSlug);
    expect(result.body).toEqual({
      ...invoice,
      invoiceUrlSlug: result.body.invoiceUrlSlug,
      currentRevisionNumber: invoice.currentRevisionNumber + 1,
      updatedAt: expect.stringMatching(isoTimestamp),
    });
    expect(await getInvoice(invoice.invoiceId)).toEqual(result.body);
  });

  it('keeps exactly one slug lookup per invoice: the new slug, by its hash', async () => {
    const invoice = await invoiceIn('draft');
    const rotated = expectOk(await act(invoice.invoiceId, 'rotate-url-slug'));
    const lookups = (await t.scanTable()).filter(
      (item) => item.entityType === 'InvoiceSlug' && item.invoiceId === invoice.invoiceId,
    );
    const hash = createHash('sha256').update(rotated.invoiceUrlSlug).digest('hex');
    expect(lookups).toHaveLength(1);
    expect(lookups[0]?.PK).toBe(`INVOICE_SLUG#${hash}`);
  });
});

describe('currentRevisionNumber', () => {
  it('rises by one with every change: issue, send, payment, rotate, payment', async () => {
    const created = await invoiceIn('draft');
    expect(created.currentRevisionNumber).toBe(1);
    const steps: [InvoiceAction, Record<string, unknown>][] = [
      ['issue', {}],
      ['send', {}],
      ['payments', { amount: 1 }],
      ['rotate-url-slug', {}],
      ['send', {}],
      ['payments', { amount: total - 1 }],
    ];
    let revision = 1;
    for (const [action, fields] of steps) {
      const result = expectOk(await act(created.invoiceId, action, fields));
      revision += 1;
      expect(result.currentRevisionNumber, action).toBe(revision);
      expect((await getInvoice(created.invoiceId)).currentRevisionNumber).toBe(revision);
    }
    expect((await getInvoice(created.invoiceId)).status).toBe('paid');
  });

  it('does not change on a refused transition', async () => {
    const paid = await invoiceIn('paid');
    for (const action of ['issue', 'send', 'void'] as const)
      expectInvalidState(await act(paid.invoiceId, action));
    expect((await getInvoice(paid.invoiceId)).currentRevisionNumber).toBe(paid.currentRevisionNumber);
  });
});

describe('GET /invoices/{id}', () => {
  it('returns the current invoice', async () => {
    const invoice = await invoiceIn('partially_paid');
    const result = await t.api('GET', `/invoices/${invoice.invoiceId}`, { query: { merchantId } });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(invoice);
  });

  it('returns 404 not_found for an unknown invoice id', async () => {
    const result = await t.api('GET', `/invoices/${newId('inv')}`, { query: { merchantId } });
    expect(result.status).toBe(404);
    expect(result.body.error.code).toBe('not_found');
  });

  it('returns 400 on merchantId without a merchantId, and 403 for another merchantId', async () => {
    const invoice = await invoiceIn('draft');
    const missing = await t.api('GET', `/invoices/${invoice.invoiceId}`);
    expect(missing.status).toBe(400);
    expect(detailPaths(missing.body)).toEqual(['merchantId']);
    const other = await anotherMerchant();
    const foreign = await t.api('GET', `/invoices/${invoice.invoiceId}`, {
      query: { merchantId: other.merchantId },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('forbidden');
  });
});

describe('GET /invoices', () => {
  let api: ApiClient;
  let owner: string;
  let ids: string[];
  let customerA: string;
  let customerB: string;

  const list = async (query: Record<string, string | number>) => {
    const result = await api('GET', '/invoices', { query: { merchantId: owner, ...query } });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return result.body;
  };

  /** Every page of the owner's invoice list: the invoice ids in order and the page count. */
  async function invoicePages(query: Record<string, string | number>) {
    const { items, pages } = await allPages(api, '/invoices', { merchantId: owner, ...query });
    return { seen: items.map((item: { invoiceId: string }) => item.invoiceId), pages };
  }

  // ids[0..4], oldest first: A issued, B draft, A draft, B issued, A issued.
  beforeAll(async () => {
    const other = await anotherMerchant();
    api = other.api;
    owner = other.merchantId;
    const fixtures = await invoiceFixtures(api, owner);
    customerA = fixtures.customerId;
    const second = expectOk(
      await api('POST', '/customers', {
        body: { merchantId: owner, name: 'Bo Buyer', email: 'bo@example.com' },
        idempotencyKey: newKey(),
      }),
    );
    customerB = second.customerId;
    const plan: [string, boolean][] = [
      [customerA, true],
      [customerB, false],
      [customerA, false],
      [customerB, true],
      [customerA, true],
    ];
    ids = [];
    for (const [customerId, issue] of plan) {
      const created = expectOk(await createInvoice(api, invoiceBody(owner, { ...fixtures, customerId })));
      if (issue) expectOk(await invoiceAction(api, owner, created.invoiceId, 'issue'));
      ids.push(created.invoiceId);
    }
  });

  const newestFirst = (...indexes: number[]) => indexes.map((index) => ids[index]);

  it('lists every invoice newest first, page by page', async () => {
    const { seen, pages } = await invoicePages({ limit: 2 });
    expect(seen).toEqual(newestFirst(4, 3, 2, 1, 0));
    expect(pages).toBe(3);
  });

  it('returns each invoice as GET /invoices/{id} does', async () => {
    const body = await list({});
    expect(body.page).toEqual({ hasMore: false });
    const single = await api('GET', `/invoices/${ids[0]}`, { query: { merchantId: owner } });
    expect(body.items.at(-1)).toEqual(single.body);
  });

  it('filters by status', async () => {
    expect((await invoicePages({ status: 'issued', limit: 2 })).seen).toEqual(newestFirst(4, 3, 0));
    expect((await invoicePages({ status: 'draft' })).seen).toEqual(newestFirst(2, 1));
    expect((await invoicePages({ status: 'paid' })).seen).toEqual([]);
  });

  it('filters by customerId', async () => {
    expect((await invoicePages({ customerId: customerA, limit: 2 })).seen).toEqual(newestFirst(4, 2, 0));
    expect((await invoicePages({ customerId: customerB })).seen).toEqual(newestFirst(3, 1));
  });

  it('filters by status and customerId together, page by page', async () => {
    const both = await invoicePages({ status: 'issued', customerId: customerA, limit: 1 });
    expect(both.seen).toEqual(newestFirst(4, 0));
    expect(both.pages).toBe(2);
    expect((await invoicePages({ status: 'draft', customerId: customerB })).seen).toEqual(newestFirst(1));
    expect((await invoicePages({ status: 'void', customerId: customerA })).seen).toEqual([]);
  });

  it('follows a status change into the other status list', async () => {
    const extra = expectOk(await createInvoice(api, invoiceBody(owner, await invoiceFixtures(api, owner))));
    expect((await list({ status: 'draft', limit: 1 })).items[0].invoiceId).toBe(extra.invoiceId);
    expectOk(await invoiceAction(api, owner, extra.invoiceId, 'void'));
    expect((await invoicePages({ status: 'void' })).seen).toEqual([extra.invoiceId]);
    expect((await invoicePages({ status: 'draft' })).seen).toEqual(newestFirst(2, 1));
  });

  it('refuses with 400 a cursor used under another filter', async () => {
    const byStatus = (await list({ status: 'issued', limit: 1 })).page.nextCursor as string;
    const unfiltered = (await list({ limit: 1 })).page.nextCursor as string;
    const byCustomer = (await list({ customerId: customerA, limit: 1 })).page.nextCursor as string;
    const misuses: Record<string, string | number>[] = [
      { customerId: customerA, cursor: byStatus },
      { status: 'draft', cursor: byStatus },
      { cursor: byStatus },
      { status: 'issued', cursor: unfiltered },
      { status: 'issued', customerId: customerA, cursor: byCustomer },
      { customerId: customerB, cursor: byCustomer },
    ];
    for (const query of misuses) {
      const result = await api('GET', '/invoices', { query: { merchantId: owner, ...query } });
      expect(result.status, JSON.stringify(query)).toBe(400);
      expect(detailPaths(result.body)).toEqual(['cursor']);
    }
    const sameFilter = await api('GET', '/invoices', {
      query: { merchantId: owner, status: 'issued', cursor: byStatus },
    });
    expect(sameFilter.status).toBe(200);
  });

  it("refuses with 400 another merchant's cursor", async () => {
    const cursor = (await list({ limit: 1 })).page.nextCursor as string;
    const mine = await t.api('GET', '/invoices', { query: { merchantId, cursor } });
    expect(mine.status).toBe(400);
    expect(detailPaths(mine.body)).toEqual(['cursor']);
  });

  it('returns 400 for an unknown status, a malformed customerId and a limit outside 1–100', async () => {
    for (const [query, path] of [
      [{ status: 'overdue' }, 'status'],
      [{ customerId: 'cust_nope' }, 'customerId'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
    ] as const) {
      const result = await api('GET', '/invoices', { query: { merchantId: owner, ...query } });
      expect(result.status).toBe(400);
      expect(detailPaths(result.body)).toEqual([path]);
    }
  });

  it('returns 403 for another merchantId in the query', async () => {
    const result = await api('GET', '/invoices', { query: { merchantId } });
    expect(result.status).toBe(403);
    expect(result.body.error.code).toBe('forbidden');
  });
});

describe("another merchant's invoice", () => {
  const actions: [InvoiceAction, State, Record<string, unknown>][] = [
    ['void', 'issued', {}],
    ['issue', 'draft', {}],
    ['send', 'issued', {}],
    ['payments', 'issued', { amount: 100 }],
    ['rotate-url-slug', 'issued', {}],
  ];

  it('returns 404 for GET /invoices/{id}', async () => {
    const invoice = await invoiceIn('issued');
    const other = await anotherMerchant();
    const result = await other.api('GET', `/invoices/${invoice.invoiceId}`, {
      query: { merchantId: other.merchantId },
    });
    expect(result.status).toBe(404);
    expect(result.body.error.code).toBe('not_found');
  });

  for (const [action, state, fields] of actions) {
    it(`returns 404 for POST /invoices/{id}/${action} (the owner could: ${state}) and leaves it unchanged`, async () => {
      const invoice = await invoiceIn(state);
      const other = await anotherMerchant();
      const before = await allEventsOf(invoice.invoiceId);
      const result = await invoiceAction(other.api, other.merchantId, invoice.invoiceId, action, fields);
      expect(result.status).toBe(404);
      expect(result.body.error.code).toBe('not_found');
      expect(await getInvoice(invoice.invoiceId)).toEqual(invoice);
      expect(await allEventsOf(invoice.invoiceId)).toEqual(before);
    });
  }

  it('leaves it out of the other merchant’s list', async () => {
    const invoice = await invoiceIn('draft');
    const other = await anotherMerchant();
    const result = await other.api('GET', '/invoices', { query: { merchantId: other.merchantId } });
    expect(result.body.items.map((item: { invoiceId: string }) => item.invoiceId)).not.toContain(
      invoice.invoiceId,
    );
  });
});

describe('a malformed invoice id in the path', () => {
  const malformed = ['inv_nope', newId('prod'), 'INV_01H455VB4PEX5VSKNK084SN02Q', `inv_8${'0'.repeat(25)}`];

  for (const id of malformed) {
    it(`returns 404 not_found for ${id} on every invoice route`, async () => {
      const get = await t.api('GET', `/invoices/${id}`, { query: { merchantId } });
      expect(get.status).toBe(404);
      expect(get.body.error.code).toBe('not_found');
      for (const action of ['void', 'issue', 'send', 'payments', 'rotate-url-slug'] as const) {
        const result = await act(id, action, action === 'payments' ? { amount: 1 } : {});
        expect(result.status, action).toBe(404);
        expect(result.body.error.code).toBe('not_found');
      }
    });
  }

  it('returns 404 not_found for a well-formed id that names no invoice', async () => {
    for (const action of ['void', 'issue', 'send', 'payments', 'rotate-url-slug'] as const) {
      const result = await act(newId('inv'), action, action === 'payments' ? { amount: 1 } : {});
      expect(result.status, action).toBe(404);
    }
  });
});

describe('Idempotency-Key', () => {
  it('is required on POST /invoices', async () => {
    const result = await t.api('POST', '/invoices', { body: invoiceBody(merchantId, refs) });
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe('idempotency_key_required');
  });

  for (const [action, state, fields] of [
    ['void', 'issued', {}],
    ['issue', 'draft', {}],
    ['send', 'issued', {}],
    ['payments', 'issued', { amount: 100 }],
    ['rotate-url-slug', 'issued', {}],
  ] as [InvoiceAction, State, Record<string, unknown>][]) {
    it(`is required on POST /invoices/{id}/${action}, and nothing changes without it`, async () => {
      const invoice = await invoiceIn(state);
      const result = await t.api('POST', `/invoices/${invoice.invoiceId}/${action}`, {
        body: { merchantId, ...fields },
      });
      expect(result.status).toBe(400);
      expect(result.body.error.code).toBe('idempotency_key_required');
      expect(await getInvoice(invoice.invoiceId)).toEqual(invoice);
    });
  }
});

describe('merchant scope of the lifecycle routes', () => {
  for (const action of ['void', 'issue', 'send', 'payments', 'rotate-url-slug'] as const) {
    it(`returns 403 forbidden for another merchantId in the body of ${action}`, async () => {
      const invoice = await invoiceIn('issued');
      const other = await anotherMerchant();
      const result = await invoiceAction(
        t.api,
        other.merchantId,
        invoice.invoiceId,
        action,
        action === 'payments' ? { amount: 1 } : {},
      );
      expect(result.status).toBe(403);
      expect(result.body.error.code).toBe('forbidden');
      expect(await getInvoice(invoice.invoiceId)).toEqual(invoice);
    });
  }

  it('returns 400 on an unknown body field of a lifecycle route', async () => {
    const invoice = await invoiceIn('draft');
    const result = await act(invoice.invoiceId, 'issue', { sendEmail: true });
    expect(result.status).toBe(400);
    expect(detailPaths(result.body)).toEqual(['sendEmail']);
  });
});
