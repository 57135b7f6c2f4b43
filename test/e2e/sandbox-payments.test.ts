import { describe, expect, it } from 'vitest';
import { newId } from '../../functions/domain/ids';
import { SandboxDecline } from '../../functions/payments/sandbox-processor';
import { e2eInvoiceFile, merchantId, refs, t } from '../support/e2e-test';
import { expectOk } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { isoTimestamp } from '../support/iso-timestamp';
import { type ApiClient, detailPaths, newKey } from '../support/local-runtime';
import {
  bankAccounts,
  cards,
  eventsWhere,
  sandboxPayment,
  testBankAccount,
  testCard,
} from '../support/payment-requests';
import { eventPayloadFields, payloadFieldsOf, paymentFields } from '../support/spec-fields';

const test = e2eInvoiceFile();
let other: { merchantId: string; api: ApiClient };

test.beforeAll(async () => {
  other = await t.anotherMerchant();
});

function paymentBody(paymentMethod: unknown, fields: Record<string, unknown> = {}) {
  return { merchantId, customerId: refs.customerId, amount: 5000, currency: 'USD', paymentMethod, ...fields };
}

async function payByCard(number: string = cards.succeeds, fields: Record<string, unknown> = {}) {
  return expectOk(await sandboxPayment(t.api, paymentBody(testCard(number), fields)));
}

const refund = (paymentId: string, fields: Record<string, unknown> = {}, key = newKey(), api = t.api) =>
  api('POST', `/sandbox/payments/${paymentId}/refunds`, {
    body: { merchantId, ...fields },
    idempotencyKey: key,
  });

const returnPayment = (paymentId: string, key = newKey(), api = t.api, owner = merchantId) =>
  api('POST', `/sandbox/payments/${paymentId}/return`, { body: { merchantId: owner }, idempotencyKey: key });

describe('POST /sandbox/payments', () => {
  it('charges a test card: 201 with the payment, which GET /payments/{id} then shows', async () => {
    const created = await sandboxPayment(t.api, paymentBody(testCard(cards.succeeds)));
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(paymentFields);
    expect(created.body).toMatchObject({
      merchantId,
      customerId: refs.customerId,
      invoiceId: null,
      amount: 5000,
      amountRefunded: 0,
      currency: 'USD',
      status: 'completed',
      paymentMethodType: 'card',
      processor: 'sandbox',
      processorReferenceId: expect.stringMatching(/^sbx_ch_/),
      declineCode: null,
      declineMessage: null,
      createdAt: expect.stringMatching(isoTimestamp),
    });
    expect(created.body.paymentId).toMatch(/^pmt_/);
    const read = await t.api('GET', `/payments/${created.body.paymentId}`, { query: { merchantId } });
    expect(read.body).toEqual(created.body);
  });

  it('emits payments.PaymentCreated with exactly the documented fields', async () => {
    const payment = await payByCard(cards.succeeds, { productId: refs.productId, priceId: refs.priceId });
    const [event, ...more] = eventsWhere(
      await t.scanTable(),
      'payments.PaymentCreated',
      'paymentId',
      payment.paymentId,
    );
    expect(more).toEqual([]);
    expect(payloadFieldsOf(event)).toEqual(eventPayloadFields['payments.PaymentCreated']);
    expect(event.payload).toEqual({
      paymentId: payment.paymentId,
      paymentInstrumentId: expect.stringMatching(/^pmi_/),
      priceId: refs.priceId,
      processor: 'sandbox',
      customerId: refs.customerId,
      merchantId,
      amount: 5000,
      currency: 'USD',
      occurredAt: payment.createdAt,
    });
  });

  it('keeps a declined charge as a declined payment and emits payments.PaymentDeclined', async () => {
    const declined = await sandboxPayment(t.api, paymentBody(testCard(cards.insufficientFunds)));
    expect(declined.status).toBe(201);
    expect(declined.body).toMatchObject({
      status: 'declined',
      declineCode: 'insufficient_funds',
      declineMessage: SandboxDecline.insufficient_funds,
    });
    const items = await t.scanTable();
    const [event] = eventsWhere(items, 'payments.PaymentDeclined', 'paymentId', declined.body.paymentId);
    expect(payloadFieldsOf(event)).toEqual(eventPayloadFields['payments.PaymentDeclined']);
    expect(event.payload).toEqual({
      paymentId: declined.body.paymentId,
      merchantId,
      processor: 'sandbox',
      declineCode: 'insufficient_funds',
      declineMessage: SandboxDecline.insufficient_funds,
      occurredAt: declined.body.createdAt,
    });
    expect(eventsWhere(items, 'payments.PaymentCreated', 'paymentId', declined.body.paymentId)).toEqual([]);
  });

  it('charges and declines test bank accounts', async () => {
    const paid = expectOk(await sandboxPayment(t.api, paymentBody(testBankAccount(bankAccounts.succeeds))));
    expect(paid).toMatchObject({ status: 'completed', paymentMethodType: 'bank_account' });
    const closed = expectOk(await sandboxPayment(t.api, paymentBody(testBankAccount(bankAccounts.closed))));
    expect(closed).toMatchObject({ status: 'declined', declineCode: 'account_closed' });
  });

  it('leaves malformed card details to the processor, which declines them', async () => {
    const badMonth = await payByCard(cards.succeeds, {
      paymentMethod: { ...testCard(cards.succeeds), expMonth: 13 },
    });
    expect(badMonth).toMatchObject({ status: 'declined', declineCode: 'invalid_expiry' });
    const badNumber = await payByCard('4242424242424241');
    expect(badNumber).toMatchObject({ status: 'declined', declineCode: 'invalid_number' });
  });

  it('accepts card numbers typed with spaces and dashes', async () => {
    const payment = await payByCard('4242 4242-4242 4242');
    expect(payment.status).toBe('completed');
  });

  it('replays a retry with the same key and charges once', async () => {
    const key = newKey();
    const body = paymentBody(testCard(cards.succeeds), { amount: 777 });
    const first = await sandboxPayment(t.api, body, key);
    const again = await sandboxPayment(t.api, body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const changed = await sandboxPayment(t.api, { ...body, amount: 778 }, key);
    expect(changed.status).toBe(422);
    expect(changed.body.error.code).toBe('idempotency_key_reused');
    const items = await t.scanTable();
    expect(items.filter((item) => item.entityType === 'Payment' && item.amount === 777)).toHaveLength(1);
  });

  it('charges once for 10 concurrent identical requests; the others replay or are told it is in progress', async () => {
    const key = newKey();
    const body = paymentBody(testCard(cards.succeeds), { amount: 4321 });
    const results = await Promise.all(Array.from({ length: 10 }, () => sandboxPayment(t.api, body, key)));
    const created = results.filter((result) => result.status === 201);
    const inProgress = results.filter((result) => result.status === 409);
    expect(created.length + inProgress.length).toBe(10);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((result) => result.body.paymentId)).size).toBe(1);
    for (const result of inProgress) expect(result.body.error.code).toBe('idempotency_in_progress');
    const payments = (await t.scanTable()).filter(
      (item) => item.entityType === 'Payment' && item.amount === 4321,
    );
    expect(payments).toHaveLength(1);
  });

  it.each([
    ['no payment method', { paymentMethod: undefined }, ['paymentMethod']],
    ['an unknown method type', { paymentMethod: { type: 'cash' } }, ['paymentMethod.type']],
    [
      'a card without its cvc',
      { paymentMethod: { ...testCard(cards.succeeds), cvc: undefined } },
      ['paymentMethod.cvc'],
    ],
    [
      'a fractional expiry month',
      { paymentMethod: { ...testCard(cards.succeeds), expMonth: 1.5 } },
      ['paymentMethod.expMonth'],
    ],
    ['an amount of 0', { amount: 0 }, ['amount']],
    ['an amount past 2^53 - 1', { amount: 2 ** 53 }, ['amount']],
    ['an unknown currency', { currency: 'EUR' }, ['currency']],
    ['an unknown field', { tip: 5 }, ['tip']],
    ['a priceId without its productId', { priceId: newId('price') }, ['productId']],
    ['a productId without its priceId', { productId: newId('prod') }, ['priceId']],
  ])('refuses %s with a 400 and writes nothing', async (_case, fields, paths) => {
    const before = (await t.scanTable()).length;
    const result = await sandboxPayment(t.api, paymentBody(testCard(cards.succeeds), fields));
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe('validation_error');
    expect(detailPaths(result.body)).toEqual(paths);
    expect((await t.scanTable()).length).toBe(before);
  });

  it('refuses a customer or price that is not the merchant’s with a 400 on that field', async () => {
    const otherRefs = await invoiceFixtures(other.api, other.merchantId);
    const foreignCustomer = await sandboxPayment(
      t.api,
      paymentBody(testCard(cards.succeeds), { customerId: otherRefs.customerId }),
    );
    expect(foreignCustomer.status).toBe(400);
    expect(foreignCustomer.body.error.details).toEqual([
      { path: 'customerId', message: 'must name an existing customer.' },
    ]);
    const foreignPrice = await sandboxPayment(
      t.api,
      paymentBody(testCard(cards.succeeds), { productId: otherRefs.productId, priceId: otherRefs.priceId }),
    );
    expect(foreignPrice.status).toBe(400);
    expect(foreignPrice.body.error.details).toEqual([
      { path: 'priceId', message: 'must name a price of this product.' },
    ]);
    const wrongCurrency = await sandboxPayment(
      t.api,
      paymentBody(testCard(cards.succeeds), {
        currency: 'CAD',
        productId: refs.productId,
        priceId: refs.priceId,
      }),
    );
    expect(wrongCurrency.body.error.details).toEqual([
      { path: 'currency', message: 'must be USD, the currency of the price.' },
    ]);
  });

  it('answers 403 for another merchant’s merchantId in the body', async () => {
    const result = await sandboxPayment(other.api, paymentBody(testCard(cards.succeeds)));
    expect(result.status).toBe(403);
    expect(result.body.error.code).toBe('forbidden');
  });
});

describe('POST /sandbox/payments/{paymentId}/refunds', () => {
  it('refunds part, then the rest by default; the payment is refunded only once fully refunded', async () => {
    const payment = await payByCard();
    const part = await refund(payment.paymentId, { amount: 1500 });
    expect(part.status).toBe(201);
    expect(Object.keys(part.body).sort()).toEqual(
      [
        'id',
        'paymentId',
        'amount',
        'currency',
        'processorReferenceId',
        'refundedAt',
        'paymentStatus',
        'status',
      ].sort(),
    );
    expect(part.body).toMatchObject({
      paymentId: payment.paymentId,
      amount: 1500,
      currency: 'USD',
      processorReferenceId: expect.stringMatching(/^sbx_re_/),
      refundedAt: expect.stringMatching(isoTimestamp),
      paymentStatus: 'completed',
    });
    expect(part.body.id).toMatch(/^refund_/);
    const afterPart = await t.api('GET', `/payments/${payment.paymentId}`, { query: { merchantId } });
    expect(afterPart.body).toMatchObject({ status: 'completed', amountRefunded: 1500 });

    const rest = expectOk(await refund(payment.paymentId));
    expect(rest).toMatchObject({ amount: 3500, paymentStatus: 'refunded' });
    const afterRest = await t.api('GET', `/payments/${payment.paymentId}`, { query: { merchantId } });
    expect(afterRest.body).toMatchObject({ status: 'refunded', amountRefunded: 5000 });

    // Read later, a refund says what its payment is now: refunded, once the rest was refunded too.
    const one = await t.api('GET', `/payments/${payment.paymentId}/refunds/${part.body.id}`, {
      query: { merchantId },
    });
    expect(one.body).toEqual({ ...part.body, paymentStatus: 'refunded' });

    const events = eventsWhere(
      await t.scanTable(),
      'payments.PaymentRefunded',
      'paymentId',
      payment.paymentId,
    );
    expect(events.map((event) => event.payload.refundedAmount).sort()).toEqual([1500, 3500]);
    for (const event of events) {
      expect(payloadFieldsOf(event)).toEqual(eventPayloadFields['payments.PaymentRefunded']);
    }
    const firstEvent = events.find((event) => event.payload.refundId === part.body.id);
    expect(firstEvent.payload).toEqual({
      refundId: part.body.id,
      paymentId: payment.paymentId,
      merchantId,
      refundedAmount: 1500,
      currency: 'USD',
      processorReferenceId: part.body.processorReferenceId,
      occurredAt: part.body.refundedAt,
    });
  });

  it('never refunds more than is left: 409, and nothing changes', async () => {
    const payment = await payByCard();
    expectOk(await refund(payment.paymentId, { amount: 4000 }));
    const before = await t.scanTable();
    const tooMuch = await refund(payment.paymentId, { amount: 1001 });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error).toMatchObject({ code: 'invalid_state' });
    expect(tooMuch.body.error.message).toContain('1000');
    const after = await t.scanTable();
    expect(after.filter((item) => item.entityType !== 'IdempotencyRecord')).toEqual(
      before.filter((item) => item.entityType !== 'IdempotencyRecord'),
    );
    expectOk(await refund(payment.paymentId, { amount: 1000 }));
    const nothingLeft = await refund(payment.paymentId, { amount: 1 });
    expect(nothingLeft.status).toBe(409);
    expect((await refund(payment.paymentId)).status).toBe(409);
  });

  it('refuses to refund a declined payment', async () => {
    const declined = await payByCard(cards.declined);
    const result = await refund(declined.paymentId);
    expect(result.status).toBe(409);
    expect(result.body.error.code).toBe('invalid_state');
  });

  it('lets only one of two concurrent refunds take the same remainder', async () => {
    const payment = await payByCard();
    const results = await Promise.all([
      refund(payment.paymentId, { amount: 3000 }),
      refund(payment.paymentId, { amount: 3000 }),
    ]);
    const statuses = results.map((result) => result.status).sort();
    expect(statuses[0]).toBe(201);
    expect(statuses[1]).toBe(409);
    const loser = results.find((result) => result.status === 409);
    expect(['invalid_state', 'payment_in_progress']).toContain(loser?.body.error.code);
    const read = await t.api('GET', `/payments/${payment.paymentId}`, { query: { merchantId } });
    expect(read.body.amountRefunded).toBe(3000);
  });

  it('replays a refund retried with the same key', async () => {
    const payment = await payByCard();
    const key = newKey();
    const first = await refund(payment.paymentId, { amount: 100 }, key);
    const again = await refund(payment.paymentId, { amount: 100 }, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const read = await t.api('GET', `/payments/${payment.paymentId}`, { query: { merchantId } });
    expect(read.body.amountRefunded).toBe(100);
  });

  it('answers 404 for another merchant’s payment and for an unknown one', async () => {
    const payment = await payByCard();
    const foreign = await other.api('POST', `/sandbox/payments/${payment.paymentId}/refunds`, {
      body: { merchantId: other.merchantId },
      idempotencyKey: newKey(),
    });
    expect(foreign.status).toBe(404);
    expect((await refund(newId('pmt'))).status).toBe(404);
    expect((await refund('pmt_not-an-id')).status).toBe(404);
    const read = await t.api('GET', `/payments/${payment.paymentId}`, { query: { merchantId } });
    expect(read.body.amountRefunded).toBe(0);
  });
});

describe('POST /sandbox/payments/{paymentId}/return', () => {
  it('returns a payment of the returning test account, less what was refunded', async () => {
    const payment = expectOk(
      await sandboxPayment(t.api, paymentBody(testBankAccount(bankAccounts.returnedLater))),
    );
    expectOk(await refund(payment.paymentId, { amount: 1200 }));
    const returned = await returnPayment(payment.paymentId);
    expect(returned.status).toBe(200);
    expect(Object.keys(returned.body).sort()).toEqual(paymentFields);
    expect(returned.body).toMatchObject({ status: 'returned', amountRefunded: 1200 });
    const [event] = eventsWhere(
      await t.scanTable(),
      'payments.PaymentReturned',
      'paymentId',
      payment.paymentId,
    );
    expect(payloadFieldsOf(event)).toEqual(eventPayloadFields['payments.PaymentReturned']);
    expect(event.payload).toEqual({
      returnId: expect.stringMatching(/^ret_/),
      paymentId: payment.paymentId,
      merchantId,
      returnedAmount: 3800,
      currency: 'USD',
      processorReferenceId: expect.stringMatching(/^sbx_rt_/),
      occurredAt: returned.body.updatedAt,
    });
    const again = await returnPayment(payment.paymentId);
    expect(again.status).toBe(409);
    expect((await refund(payment.paymentId, { amount: 1 })).status).toBe(409);
  });

  it('makes the refunds of a returned payment read paymentStatus returned, one by one and listed', async () => {
    const payment = expectOk(
      await sandboxPayment(t.api, paymentBody(testBankAccount(bankAccounts.returnedLater))),
    );
    const refunded = expectOk(await refund(payment.paymentId, { amount: 1200 }));
    expect(refunded.paymentStatus).toBe('completed');
    expectOk(await returnPayment(payment.paymentId));
    const one = await t.api('GET', `/payments/${payment.paymentId}/refunds/${refunded.id}`, {
      query: { merchantId },
    });
    expect(one.body).toEqual({ ...refunded, paymentStatus: 'returned' });
    const listed = await t.api('GET', `/payments/${payment.paymentId}/refunds`, { query: { merchantId } });
    expect(listed.body.items).toEqual([{ ...refunded, paymentStatus: 'returned' }]);
  });

  it('refuses card payments and other bank accounts’ payments with 409', async () => {
    const card = await payByCard();
    const cardReturn = await returnPayment(card.paymentId);
    expect(cardReturn.status).toBe(409);
    expect(cardReturn.body.error.message).toContain('bank account');
    const bank = expectOk(await sandboxPayment(t.api, paymentBody(testBankAccount(bankAccounts.succeeds))));
    expect((await returnPayment(bank.paymentId)).status).toBe(409);
  });

  it('answers 404 for another merchant’s payment', async () => {
    const payment = expectOk(
      await sandboxPayment(t.api, paymentBody(testBankAccount(bankAccounts.returnedLater))),
    );
    const foreign = await returnPayment(payment.paymentId, newKey(), other.api, other.merchantId);
    expect(foreign.status).toBe(404);
    const read = await t.api('GET', `/payments/${payment.paymentId}`, { query: { merchantId } });
    expect(read.body.status).toBe('completed');
  });
});

describe('POST /sandbox/payouts', () => {
  it('pays out the gross less the sandbox fee and emits payouts.PayoutCreated', async () => {
    const first = await t.api('POST', '/sandbox/payouts', {
      body: { merchantId, amount: 10_000, currency: 'CAD' },
      idempotencyKey: newKey(),
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      payoutId: expect.stringMatching(/^po_/),
      merchantId,
      payoutAccountId: expect.stringMatching(/^pacct_/),
      processor: 'sandbox',
      grossAmount: 10_000,
      feeAmount: 320,
      netAmount: 9680,
      currency: 'CAD',
      createdAt: expect.stringMatching(isoTimestamp),
    });
    const second = expectOk(
      await t.api('POST', '/sandbox/payouts', {
        body: { merchantId, amount: 10, currency: 'USD' },
        idempotencyKey: newKey(),
      }),
    );
    expect(second).toMatchObject({
      payoutAccountId: first.body.payoutAccountId,
      feeAmount: 10,
      netAmount: 0,
    });
    const [event] = eventsWhere(
      await t.scanTable(),
      'payouts.PayoutCreated',
      'payoutId',
      first.body.payoutId,
    );
    expect(payloadFieldsOf(event)).toEqual(eventPayloadFields['payouts.PayoutCreated']);
    expect(event.payload).toEqual({
      payoutId: first.body.payoutId,
      merchantId,
      payoutAccountId: first.body.payoutAccountId,
      processor: 'sandbox',
      grossAmount: 10_000,
      feeAmount: 320,
      netAmount: 9680,
      currency: 'CAD',
      occurredAt: first.body.createdAt,
    });
  });

  it('refuses an amount of 0 with a 400', async () => {
    const result = await t.api('POST', '/sandbox/payouts', {
      body: { merchantId, amount: 0, currency: 'USD' },
      idempotencyKey: newKey(),
    });
    expect(result.status).toBe(400);
    expect(detailPaths(result.body)).toEqual(['amount']);
  });
});
