import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { TypeID } from 'typeid-js';
import { describe, expect, it } from 'vitest';
import { newId } from '../../functions/domain/ids';
import { newPayment, newRefund, type Payment, refundPayment } from '../../functions/domain/payment';
import { documentClient } from '../../functions/store/client';
import { buildPutPayment, buildPutRefund } from '../../functions/store/payments';
import { e2eFile, merchantId, t } from '../support/e2e-test';
import { expectParentReadBesideEveryPage } from '../support/pages';
import { sandboxCharge } from '../support/sandbox-charges';
import { paymentFields } from '../support/spec-fields';

e2eFile();
const customerA = newId('cust');
const customerB = newId('cust');

/** A payment id minted at `time`, as the store's time-ordered ids are. */
function paymentIdAt(time: string): string {
  const bytes = TypeID.fromString(newId('pmt')).toUUIDBytes();
  let milliseconds = BigInt(Date.parse(time));
  for (let index = 5; index >= 0; index -= 1) {
    bytes[index] = Number(milliseconds & 0xffn);
    milliseconds >>= 8n;
  }
  return TypeID.fromUUIDBytes('pmt', bytes).toString();
}

/** Payments (and refunds) go in through the store: the routes that make them come with the sandbox. */
async function seedPayment(input: {
  at: string;
  customerId: string;
  amount?: number;
  declined?: boolean;
  owner?: string;
}) {
  const payment = newPayment({
    paymentId: paymentIdAt(input.at),
    merchantId: input.owner ?? merchantId,
    customerId: input.customerId,
    invoiceId: null,
    priceId: null,
    amount: input.amount ?? 1000,
    currency: 'USD',
    paymentMethodType: 'card',
    processor: 'sandbox',
    charge: sandboxCharge(input.declined === true),
    now: input.at,
  });
  await documentClient().send(new TransactWriteCommand({ TransactItems: [buildPutPayment(payment)] }));
  return payment;
}

async function seedRefund(payment: Payment, amount: number, at: string) {
  const refunded = refundPayment(payment, amount, at);
  const refund = newRefund({
    refundId: newId('refund'),
    refundedPayment: refunded,
    amount,
    processorReferenceId: 'sbx_re_1',
    now: at,
  });
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { ...buildPutPayment(refunded).Put, ConditionExpression: undefined } },
        buildPutRefund(payment.merchantId, refund),
      ],
    }),
  );
  return { refunded, refund };
}

describe('GET /payments', () => {
  it('lists newest first with exactly the listing fields, filtered by status, customer and time', async () => {
    const first = await seedPayment({ at: '2026-01-01T10:00:00.000Z', customerId: customerA });
    const second = await seedPayment({
      at: '2026-02-01T10:00:00.000Z',
      customerId: customerB,
      declined: true,
    });
    const third = await seedPayment({ at: '2026-03-01T10:00:00.000Z', customerId: customerA });

    const all = await t.api('GET', '/payments', { query: { merchantId } });
    expect(all.status).toBe(200);
    expect(all.body.items.map((item: { paymentId: string }) => item.paymentId)).toEqual([
      third.paymentId,
      second.paymentId,
      first.paymentId,
    ]);
    expect(Object.keys(all.body.items[0]).sort()).toEqual(paymentFields);

    const ids = async (query: Record<string, string | number>) =>
      (await t.api('GET', '/payments', { query: { merchantId, ...query } })).body.items.map(
        (item: { paymentId: string }) => item.paymentId,
      );
    expect(await ids({ status: 'declined' })).toEqual([second.paymentId]);
    expect(await ids({ customerId: customerA })).toEqual([third.paymentId, first.paymentId]);
    expect(await ids({ createdFrom: '2026-01-15T00:00:00.000Z' })).toEqual([
      third.paymentId,
      second.paymentId,
    ]);
    expect(await ids({ createdTo: '2026-02-01T10:00:00.000Z' })).toEqual([second.paymentId, first.paymentId]);
    expect(
      await ids({ createdFrom: '2026-01-01T10:00:00.000Z', createdTo: '2026-01-01T10:00:00.000Z' }),
    ).toEqual([first.paymentId]);
    expect(await ids({ customerId: customerA, status: 'completed', limit: 1 })).toEqual([third.paymentId]);
    // No payment is older than 1970: a range from before it holds them all, one ending before it none.
    expect(await ids({ createdFrom: '1969-12-31T23:59:59.999Z' })).toEqual([
      third.paymentId,
      second.paymentId,
      first.paymentId,
    ]);
    expect(await ids({ createdTo: '1969-12-31T23:59:59.999Z' })).toEqual([]);
  });

  it('pages with cursors bound to the filters, and refuses bad queries with 400', async () => {
    const page = await t.api('GET', '/payments', { query: { merchantId, limit: 1 } });
    expect(page.body.page.hasMore).toBe(true);
    const cursor = page.body.page.nextCursor;
    expect((await t.api('GET', '/payments', { query: { merchantId, limit: 1, cursor } })).status).toBe(200);
    expect(
      (await t.api('GET', '/payments', { query: { merchantId, cursor, status: 'completed' } })).status,
    ).toBe(400);
    for (const query of [
      { status: 'paid' },
      { customerId: 'cus_1' },
      { createdFrom: 'yesterday' },
      { createdFrom: '2026-03-01T00:00:00.000Z', createdTo: '2026-01-01T00:00:00.000Z' },
      { limit: 0 },
      { sort: 'asc' },
    ]) {
      const result = await t.api('GET', '/payments', { query: { merchantId, ...query } });
      expect(result.status, JSON.stringify(query)).toBe(400);
    }
  });

  it("never shows another merchant's payments, and 404s them by id", async () => {
    const other = await t.anotherMerchant();
    const theirs = await seedPayment({
      at: '2026-04-01T10:00:00.000Z',
      customerId: customerA,
      owner: other.merchantId,
    });
    const mine = await t.api('GET', '/payments', { query: { merchantId, limit: 100 } });
    expect(mine.body.items.map((item: { paymentId: string }) => item.paymentId)).not.toContain(
      theirs.paymentId,
    );
    expect((await t.api('GET', `/payments/${theirs.paymentId}`, { query: { merchantId } })).status).toBe(404);
    const own = await other.api('GET', `/payments/${theirs.paymentId}`, {
      query: { merchantId: other.merchantId },
    });
    expect(own.status).toBe(200);
    expect(own.body.paymentId).toBe(theirs.paymentId);
  });
});

describe('refunds of a payment', () => {
  it('lists a payment’s refunds and gets one only under its own payment', async () => {
    const payment = await seedPayment({
      at: '2026-05-01T10:00:00.000Z',
      customerId: customerA,
      amount: 1000,
    });
    const partial = await seedRefund(payment, 400, '2026-05-02T10:00:00.000Z');
    const full = await seedRefund(partial.refunded, 600, '2026-05-03T10:00:00.000Z');
    const otherPayment = await seedPayment({ at: '2026-05-04T10:00:00.000Z', customerId: customerA });

    const listed = await t.api('GET', `/payments/${payment.paymentId}/refunds`, { query: { merchantId } });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((refund: { id: string }) => refund.id)).toEqual([
      full.refund.id,
      partial.refund.id,
    ]);

    const one = await t.api('GET', `/payments/${payment.paymentId}/refunds/${full.refund.id}`, {
      query: { merchantId },
    });
    expect(one.body).toEqual({
      id: full.refund.id,
      paymentId: payment.paymentId,
      amount: 600,
      currency: 'USD',
      processorReferenceId: 'sbx_re_1',
      refundedAt: '2026-05-03T10:00:00.000Z',
      paymentStatus: 'refunded',
      // Stored without one, as every refund before refunds had a status: the sandbox's, refunded at once.
      status: 'succeeded',
    });
    const fetched = await t.api('GET', `/payments/${payment.paymentId}`, { query: { merchantId } });
    expect(fetched.body).toMatchObject({ status: 'refunded', amountRefunded: 1000 });

    const wrongPair = await t.api('GET', `/payments/${otherPayment.paymentId}/refunds/${full.refund.id}`, {
      query: { merchantId },
    });
    expect(wrongPair.status).toBe(404);
    const malformed = await t.api('GET', `/payments/${payment.paymentId}/refunds/re_1`, {
      query: { merchantId },
    });
    expect(malformed.status).toBe(404);
  });

  it('pages a payment’s refunds with a cursor, reading the payment beside every page', async () => {
    const payment = await seedPayment({ at: '2026-07-01T10:00:00.000Z', customerId: customerA, amount: 900 });
    const first = await seedRefund(payment, 100, '2026-07-02T10:00:00.000Z');
    const second = await seedRefund(first.refunded, 200, '2026-07-03T10:00:00.000Z');
    const unrefunded = await seedPayment({ at: '2026-07-04T10:00:00.000Z', customerId: customerA });
    const list = (id: string, query: Record<string, string | number> = {}) =>
      t.api('GET', `/payments/${id}/refunds`, { query: { merchantId, ...query } });
    await list(payment.paymentId, { limit: 1 }); // warms the cursor signing key

    let cursor = '';
    await expectParentReadBesideEveryPage({
      firstPage: async () => {
        const result = await list(payment.paymentId, { limit: 1 });
        expect(result.body.items.map((refund: { id: string }) => refund.id)).toEqual([second.refund.id]);
        cursor = result.body.page.nextCursor;
      },
      secondPage: async () => {
        const result = await list(payment.paymentId, { limit: 1, cursor });
        expect(result.status).toBe(200);
        expect(result.body.items.map((refund: { id: string }) => refund.id)).toEqual([first.refund.id]);
        expect(result.body.page).toEqual({ hasMore: false });
      },
      emptyPage: async () => {
        const result = await list(unrefunded.paymentId);
        expect(result.status).toBe(200);
        expect(result.body).toEqual({ items: [], page: { hasMore: false } });
      },
      unknownParent: async () => {
        const result = await list(paymentIdAt('2026-07-05T10:00:00.000Z'));
        expect(result.status).toBe(404);
        expect(result.body.error).toMatchObject({
          code: 'not_found',
          message: 'The payment does not exist.',
        });
      },
    });
  });

  it("answers 404 for another merchant's payment refunds", async () => {
    const other = await t.anotherMerchant();
    const theirs = await seedPayment({
      at: '2026-06-01T10:00:00.000Z',
      customerId: customerB,
      owner: other.merchantId,
    });
    const { refund } = await seedRefund(theirs, 100, '2026-06-02T10:00:00.000Z');
    expect(
      (await t.api('GET', `/payments/${theirs.paymentId}/refunds`, { query: { merchantId } })).status,
    ).toBe(404);
    const withoutRefunds = await seedPayment({
      at: '2026-06-03T10:00:00.000Z',
      customerId: customerB,
      owner: other.merchantId,
    });
    expect(
      (await t.api('GET', `/payments/${withoutRefunds.paymentId}/refunds`, { query: { merchantId } })).status,
    ).toBe(404);
    const single = await t.api('GET', `/payments/${theirs.paymentId}/refunds/${refund.id}`, {
      query: { merchantId },
    });
    expect(single.status).toBe(404);
  });
});
