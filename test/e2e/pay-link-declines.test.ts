import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayerDecline, PayLinkDeclineLimit } from '../../functions/domain/pay-link-declines';
import { documentClient } from '../../functions/store/client';
import { buildReplaceInvoice, getStoredInvoice } from '../../functions/store/invoices';
import { keys } from '../../functions/store/keys';
import { sendTransaction, TransactionConditionFailed } from '../../functions/store/transaction';
import {
  adjustmentLine,
  createInvoice,
  expectOk,
  type InvoiceRefs,
  invoiceAction,
  invoiceBody,
  productLine,
} from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import {
  type ApiClient,
  apiClient,
  newKey,
  startTestRuntime,
  type TestRuntime,
} from '../support/local-runtime';
import { bankAccounts, cards, eventsWhere, testBankAccount, testCard } from '../support/payment-requests';

let t: TestRuntime;
let merchantId: string;
let refs: InvoiceRefs;
let publicApi: ApiClient;

beforeAll(async () => {
  t = await startTestRuntime();
  merchantId = t.runtime.merchantId;
  refs = await invoiceFixtures(t.api, merchantId);
  publicApi = apiClient(t.runtime.baseUrl, 'unused');
});
afterAll(() => t.stop());

const { cap, windowMs } = PayLinkDeclineLimit;
const hourMs = 60 * 60 * 1000;

/** Declines of docs/sandbox-testing.md, one per reason: as many as the cap allows in an hour. */
const declines = [
  { method: testCard(cards.insufficientFunds), code: 'insufficient_funds' },
  { method: testCard(cards.declined), code: 'card_declined' },
  { method: testCard('4000000000000036'), code: 'do_not_honor' },
  { method: testCard('4000000000000069'), code: 'expired_card' },
  { method: testBankAccount(bankAccounts.closed), code: 'account_closed' },
] as const;

/** An issued invoice of 2 × 1250 + 250 tax = 2750 USD; returns its merchant-facing body. */
async function issuedInvoice(): Promise<any> {
  const created = expectOk(
    await createInvoice(
      t.api,
      invoiceBody(merchantId, refs, { lineItems: [productLine(refs, 2), adjustmentLine(250)] }),
    ),
  );
  return expectOk(await invoiceAction(t.api, merchantId, created.invoiceId, 'issue'));
}

const pay = (slug: string, paymentMethod: unknown, key = newKey()) =>
  publicApi('POST', '/pay/payments', {
    authorization: null,
    body: { slug, amount: 2750, paymentMethod },
    idempotencyKey: key,
  });

const declinedAt = async (invoiceId: string): Promise<number[]> => {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: t.runtime.tableName,
      Key: keys.invoice(merchantId, invoiceId),
      ConsistentRead: true,
    }),
  );
  return (Item?.payLinkDeclinedAt as number[] | undefined) ?? [];
};

/** Moves some of the invoice's kept declines back in time, as if the hour had passed for them. */
async function age(invoiceId: string, positions: readonly number[], byMs: number): Promise<void> {
  const history = await declinedAt(invoiceId);
  await documentClient().send(
    new UpdateCommand({
      TableName: t.runtime.tableName,
      Key: keys.invoice(merchantId, invoiceId),
      UpdateExpression: 'SET payLinkDeclinedAt = :history',
      ExpressionAttributeValues: {
        ':history': history.map((time, position) => (positions.includes(position) ? time - byMs : time)),
      },
    }),
  );
}

const declinedPayments = async (invoiceId: string) =>
  (await t.scanTable()).filter(
    (item) => item.entityType === 'Payment' && item.invoiceId === invoiceId && item.status === 'declined',
  );

async function declineUpToTheCap(slug: string): Promise<void> {
  for (let attempt = 0; attempt < cap; attempt += 1) {
    const result = await pay(slug, testCard(cards.declined));
    expect(result.status, JSON.stringify(result.body)).toBe(201);
  }
}

describe('POST /pay/payments declines', () => {
  it('shows the payer one generic decline for every reason, and the merchant each real code', async () => {
    const invoice = await issuedInvoice();
    const answers = [];
    for (const decline of declines) answers.push(await pay(invoice.invoiceUrlSlug, decline.method));
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      expect(answer.body.payment).toMatchObject({
        status: 'declined',
        declineCode: PayerDecline.code,
        declineMessage: PayerDecline.message,
      });
    }
    // Nothing else in the answers differs by reason either, but the method the payer chose.
    const shown = answers.map(({ body }) => ({
      ...body.payment,
      paymentId: '',
      createdAt: '',
      paymentMethodType: '',
    }));
    expect(new Set(shown.map((payment) => JSON.stringify(payment))).size).toBe(1);

    const items = await t.scanTable();
    for (const [index, decline] of declines.entries()) {
      const paymentId = answers[index]?.body.payment.paymentId;
      const merchantView = expectOk(await t.api('GET', `/payments/${paymentId}`, { query: { merchantId } }));
      expect(merchantView).toMatchObject({ status: 'declined', declineCode: decline.code });
      expect(merchantView.declineMessage).not.toBe(PayerDecline.message);
      const [event] = eventsWhere(items, 'payments.PaymentDeclined', 'paymentId', paymentId);
      expect(event.payload).toMatchObject({
        declineCode: decline.code,
        declineMessage: merchantView.declineMessage,
      });
    }
  });
});

describe(`the cap of ${cap} declined pay-link payments per invoice per rolling hour`, () => {
  it('answers the next attempt 429 with Retry-After and writes nothing, whatever the card', async () => {
    const invoice = await issuedInvoice();
    await declineUpToTheCap(invoice.invoiceUrlSlug);
    const before = await t.scanTable();
    const key = newKey();
    for (const method of [testCard(cards.declined), testCard(cards.succeeds), testCard(cards.succeeds)]) {
      const refused = await pay(invoice.invoiceUrlSlug, method, key);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: { code: 'rate_limited', message: expect.any(String), requestId: expect.any(String) },
      });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(windowMs / 1000 - 600);
      expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
    }
    expect(await t.scanTable()).toEqual(before);
    const merchantView = expectOk(
      await t.api('GET', `/invoices/${invoice.invoiceId}`, { query: { merchantId } }),
    );
    expect(merchantView).toMatchObject({ status: 'issued', amountPaid: { amount: 0 } });
  });

  it('keeps the count through the merchant’s changes of the invoice', async () => {
    const invoice = await issuedInvoice();
    await declineUpToTheCap(invoice.invoiceUrlSlug);
    expectOk(await invoiceAction(t.api, merchantId, invoice.invoiceId, 'send'));
    const rotated = expectOk(await invoiceAction(t.api, merchantId, invoice.invoiceId, 'rotate-url-slug'));
    expect(await declinedAt(invoice.invoiceId)).toHaveLength(cap);
    expect((await pay(rotated.invoiceUrlSlug, testCard(cards.succeeds))).status).toBe(429);
    const merchantView = expectOk(
      await t.api('GET', `/invoices/${invoice.invoiceId}`, { query: { merchantId } }),
    );
    expect(merchantView).not.toHaveProperty('payLinkDeclinedAt');
  });

  it('refuses a merchant’s write of the invoice read before a decline, which would lose the decline', async () => {
    const invoice = await issuedInvoice();
    const stored = await getStoredInvoice(merchantId, invoice.invoiceId);
    if (stored === undefined) throw new Error('the invoice was just issued');
    expect((await pay(invoice.invoiceUrlSlug, testCard(cards.declined))).status).toBe(201);
    const stale = sendTransaction([buildReplaceInvoice(stored, stored.invoice, new Date())]);
    await expect(stale).rejects.toBeInstanceOf(TransactionConditionFailed);
    expect(await declinedAt(invoice.invoiceId)).toHaveLength(1);
  });

  it('takes an attempt again once the oldest counted decline is an hour old, and pays after the hour', async () => {
    const invoice = await issuedInvoice();
    await declineUpToTheCap(invoice.invoiceUrlSlug);
    // Only the oldest leaves the window: one more attempt, then the cap holds again.
    await age(invoice.invoiceId, [cap - 1], hourMs);
    const oneMore = await pay(invoice.invoiceUrlSlug, testCard(cards.declined));
    expect(oneMore.status, JSON.stringify(oneMore.body)).toBe(201);
    const history = await declinedAt(invoice.invoiceId);
    expect(history).toHaveLength(cap);
    expect(history).toEqual([...history].sort((a, b) => b - a));
    expect(history.every((time) => time > Date.now() - windowMs)).toBe(true);
    expect((await pay(invoice.invoiceUrlSlug, testCard(cards.succeeds))).status).toBe(429);
    expect(await declinedPayments(invoice.invoiceId)).toHaveLength(cap + 1);

    await age(invoice.invoiceId, [0, 1, 2, 3, 4], hourMs);
    const paid = await pay(invoice.invoiceUrlSlug, testCard(cards.succeeds));
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.invoice).toMatchObject({ status: 'paid' });
    // A paid invoice answers as it always did.
    const again = await pay(invoice.invoiceUrlSlug, testCard(cards.declined));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
  });

  it('never takes more declines than the cap from concurrent attempts', async () => {
    const invoice = await issuedInvoice();
    const statuses: string[] = [];
    for (let round = 0; round < 20 && !statuses.includes('429 rate_limited'); round += 1) {
      const results = await Promise.all(
        Array.from({ length: 8 }, () => pay(invoice.invoiceUrlSlug, testCard(cards.declined))),
      );
      statuses.push(...results.map((result) => `${result.status} ${result.body.error?.code ?? ''}`.trim()));
    }
    expect(statuses).toContain('429 rate_limited');
    for (const status of statuses)
      expect(['201', '409 payment_in_progress', '429 rate_limited']).toContain(status);
    expect(statuses.filter((status) => status === '201')).toHaveLength(cap);
    expect(await declinedPayments(invoice.invoiceId)).toHaveLength(cap);
    const more = await Promise.all(
      Array.from({ length: 8 }, () => pay(invoice.invoiceUrlSlug, testCard(cards.declined))),
    );
    expect(more.map((result) => result.status)).toEqual(Array(8).fill(429));
    expect(await declinedPayments(invoice.invoiceId)).toHaveLength(cap);
    expect(await declinedAt(invoice.invoiceId)).toHaveLength(cap);
  });
});
