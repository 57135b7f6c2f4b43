import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { PayerDecline, PayLinkDeclineLimit } from '../../functions/domain/pay-link-declines';
import { documentClient } from '../../functions/store/client';
import { buildReplaceInvoice, getStoredInvoice } from '../../functions/store/invoices';
import { keys } from '../../functions/store/keys';
import { sendTransaction, TransactionConditionFailed } from '../../functions/store/transaction';
import { e2eInvoiceFile, merchantId, refs, t } from '../support/e2e-test';
import { expectOk, invoiceAction, issueTaxedInvoice } from '../support/invoice-requests';
import { type ApiClient, apiClient, newKey } from '../support/local-runtime';
import { mailSettled } from '../support/mail-settled';
import { bankAccounts, cards, eventsWhere, testBankAccount, testCard } from '../support/payment-requests';

// The file sends far more pay calls a minute than one address may; that limit is pay-links.test.ts's.
const test = e2eInvoiceFile({ PUBLIC_RATE_LIMIT_PER_MINUTE: 10_000 });
let publicApi: ApiClient;

test.beforeAll(() => {
  publicApi = apiClient(t.runtime.baseUrl, 'unused');
});

/** The declines one pay link takes in an hour, and those an invoice takes across its links. */
const perSlug = 5;
const perInvoice = 20;
const windowMs = 60 * 60 * 1000;
const hourMs = 60 * 60 * 1000;

/** Declines of docs/sandbox-testing.md, one per reason: as many as one link takes in an hour. */
const declines = [
  { method: testCard(cards.insufficientFunds), code: 'insufficient_funds' },
  { method: testCard(cards.declined), code: 'card_declined' },
  { method: testCard('4000000000000036'), code: 'do_not_honor' },
  { method: testCard('4000000000000069'), code: 'expired_card' },
  { method: testBankAccount(bankAccounts.closed), code: 'account_closed' },
] as const;

/** An issued invoice of 2 × 1250 + 250 tax = 2750 USD; returns its merchant-facing body. */
const issuedInvoice = () => issueTaxedInvoice(t.api, merchantId, refs);

const pay = (slug: string, paymentMethod: unknown, key = newKey()) =>
  publicApi('POST', '/pay/payments', {
    authorization: null,
    body: { slug, amount: 2750, paymentMethod },
    idempotencyKey: key,
  });

const storedDeclines = async (invoiceId: string, attribute: string): Promise<number[]> => {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: t.runtime.tableName,
      Key: keys.invoice(merchantId, invoiceId),
      ConsistentRead: true,
    }),
  );
  return (Item?.[attribute] as number[] | undefined) ?? [];
};
/** The declines kept for the invoice's current pay link, and for the invoice across its links. */
const declinedAt = (invoiceId: string) => storedDeclines(invoiceId, 'payLinkDeclinedAt');
const invoiceDeclinedAt = (invoiceId: string) => storedDeclines(invoiceId, 'invoiceDeclinedAt');

/** Moves some of the invoice's kept declines back in time, as if the hour had passed for them. */
async function age(
  invoiceId: string,
  positions: readonly number[],
  byMs: number,
  attribute = 'payLinkDeclinedAt',
): Promise<void> {
  const history = await storedDeclines(invoiceId, attribute);
  await documentClient().send(
    new UpdateCommand({
      TableName: t.runtime.tableName,
      Key: keys.invoice(merchantId, invoiceId),
      UpdateExpression: `SET ${attribute} = :history`,
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
  for (let attempt = 0; attempt < perSlug; attempt += 1) {
    const result = await pay(slug, testCard(cards.declined));
    expect(result.status, JSON.stringify(result.body)).toBe(201);
  }
}

const rotate = async (invoiceId: string): Promise<string> =>
  expectOk(await invoiceAction(t.api, merchantId, invoiceId, 'rotate-url-slug')).invoiceUrlSlug;

/** Declines every link up to its cap, rotating after each, until the invoice's ceiling; the live slug. */
async function declineUpToTheCeiling(invoice: {
  invoiceId: string;
  invoiceUrlSlug: string;
}): Promise<string> {
  let slug = invoice.invoiceUrlSlug;
  for (let link = 0; link < perInvoice / perSlug; link += 1) {
    await declineUpToTheCap(slug);
    slug = await rotate(invoice.invoiceId);
  }
  return slug;
}

/** A 429 of the decline limits: the error shape and a Retry-After of at most the window. */
function expectRefused(refused: { status: number; headers: Headers; body: any }): void {
  expect(refused.status, JSON.stringify(refused.body)).toBe(429);
  expect(refused.body).toEqual({
    error: { code: 'rate_limited', message: expect.any(String), requestId: expect.any(String) },
  });
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(windowMs / 1000 - 600);
  expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
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

describe(`the cap of ${perSlug} declined payments per pay link per rolling hour`, () => {
  it('states the limits this file tests', () => {
    expect(PayLinkDeclineLimit).toEqual({ perSlug, perInvoice, windowMs });
  });

  it('answers the next attempt 429 with Retry-After and writes nothing, whatever the card', async () => {
    const invoice = await issuedInvoice();
    await declineUpToTheCap(invoice.invoiceUrlSlug);
    await mailSettled(t);
    const before = await t.scanTable();
    const key = newKey();
    for (const method of [testCard(cards.declined), testCard(cards.succeeds), testCard(cards.succeeds)]) {
      expectRefused(await pay(invoice.invoiceUrlSlug, method, key));
    }
    expect(await t.scanTable()).toEqual(before);
    const merchantView = expectOk(
      await t.api('GET', `/invoices/${invoice.invoiceId}`, { query: { merchantId } }),
    );
    expect(merchantView).toMatchObject({ status: 'issued', amountPaid: { amount: 0 } });
  });

  it('keeps both counts through the merchant’s other changes, and shows neither', async () => {
    const invoice = await issuedInvoice();
    await declineUpToTheCap(invoice.invoiceUrlSlug);
    expectOk(await invoiceAction(t.api, merchantId, invoice.invoiceId, 'send'));
    expect(await declinedAt(invoice.invoiceId)).toHaveLength(perSlug);
    expect(await invoiceDeclinedAt(invoice.invoiceId)).toHaveLength(perSlug);
    expectRefused(await pay(invoice.invoiceUrlSlug, testCard(cards.succeeds)));
    const merchantView = expectOk(
      await t.api('GET', `/invoices/${invoice.invoiceId}`, { query: { merchantId } }),
    );
    expect(merchantView).not.toHaveProperty('payLinkDeclinedAt');
    expect(merchantView).not.toHaveProperty('invoiceDeclinedAt');
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
    await age(invoice.invoiceId, [perSlug - 1], hourMs);
    const oneMore = await pay(invoice.invoiceUrlSlug, testCard(cards.declined));
    expect(oneMore.status, JSON.stringify(oneMore.body)).toBe(201);
    const history = await declinedAt(invoice.invoiceId);
    expect(history).toHaveLength(perSlug);
    expect(history).toEqual([...history].sort((a, b) => b - a));
    expect(history.every((time) => time > Date.now() - windowMs)).toBe(true);
    expect((await pay(invoice.invoiceUrlSlug, testCard(cards.succeeds))).status).toBe(429);
    expect(await declinedPayments(invoice.invoiceId)).toHaveLength(perSlug + 1);
    expect(await invoiceDeclinedAt(invoice.invoiceId)).toHaveLength(perSlug + 1);

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
    expect(statuses.filter((status) => status === '201')).toHaveLength(perSlug);
    expect(await declinedPayments(invoice.invoiceId)).toHaveLength(perSlug);
    const more = await Promise.all(
      Array.from({ length: 8 }, () => pay(invoice.invoiceUrlSlug, testCard(cards.declined))),
    );
    expect(more.map((result) => result.status)).toEqual(Array(8).fill(429));
    expect(await declinedPayments(invoice.invoiceId)).toHaveLength(perSlug);
    expect(await declinedAt(invoice.invoiceId)).toHaveLength(perSlug);
    expect(await invoiceDeclinedAt(invoice.invoiceId)).toHaveLength(perSlug);
  });
});

describe('a payer’s declines do not lock the merchant out', () => {
  it('start a new count with a rotated slug: the real payer pays with the new link', async () => {
    const invoice = await issuedInvoice();
    await declineUpToTheCap(invoice.invoiceUrlSlug);
    expectRefused(await pay(invoice.invoiceUrlSlug, testCard(cards.succeeds)));
    const slug = await rotate(invoice.invoiceId);
    const paid = await pay(slug, testCard(cards.succeeds));
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.invoice).toMatchObject({ status: 'paid' });
    // The new link's count started empty; the invoice's kept the old link's declines.
    expect(await declinedAt(invoice.invoiceId)).toEqual([]);
    expect(await invoiceDeclinedAt(invoice.invoiceId)).toHaveLength(perSlug);
  });

  it(`stop at ${perInvoice} per invoice across rotated links, writing nothing more`, async () => {
    const invoice = await issuedInvoice();
    const slug = await declineUpToTheCeiling(invoice);
    expect(await declinedAt(invoice.invoiceId)).toEqual([]);
    expect(await invoiceDeclinedAt(invoice.invoiceId)).toHaveLength(perInvoice);
    const before = await t.scanTable();
    for (const method of [testCard(cards.succeeds), testCard(cards.declined)]) {
      expectRefused(await pay(slug, method));
    }
    expect(await t.scanTable()).toEqual(before);
    // Another rotation starts the link's count, not the invoice's.
    expectRefused(await pay(await rotate(invoice.invoiceId), testCard(cards.succeeds)));
    expect(await declinedPayments(invoice.invoiceId)).toHaveLength(perInvoice);
  });

  it('take another once the oldest of the invoice’s counted declines is an hour old', async () => {
    const invoice = await issuedInvoice();
    const slug = await declineUpToTheCeiling(invoice);
    await age(invoice.invoiceId, [perInvoice - 1], hourMs, 'invoiceDeclinedAt');
    const oneMore = await pay(slug, testCard(cards.declined));
    expect(oneMore.status, JSON.stringify(oneMore.body)).toBe(201);
    // The full list was rewritten: the decline that left the hour is gone, the new one first.
    const history = await invoiceDeclinedAt(invoice.invoiceId);
    expect(history).toHaveLength(perInvoice);
    expect(history).toEqual([...history].sort((a, b) => b - a));
    expect(history.every((time) => time > Date.now() - windowMs)).toBe(true);
    expect(await declinedAt(invoice.invoiceId)).toEqual([history[0]]);
    expectRefused(await pay(slug, testCard(cards.succeeds)));
  });

  it('take payments again once the merchant clears them, on the link the payer has', async () => {
    const invoice = await issuedInvoice();
    const slug = await declineUpToTheCeiling(invoice);
    expectRefused(await pay(slug, testCard(cards.succeeds)));
    const cleared = await invoiceAction(t.api, merchantId, invoice.invoiceId, 'clear-pay-link-declines');
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    const live = (await getStoredInvoice(merchantId, invoice.invoiceId))?.invoice;
    expect(cleared.body).toEqual(live);
    expect(cleared.body.invoiceUrlSlug).toBe(slug);
    expect(await declinedAt(invoice.invoiceId)).toEqual([]);
    expect(await invoiceDeclinedAt(invoice.invoiceId)).toEqual([]);
    const paid = await pay(slug, testCard(cards.succeeds));
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.invoice).toMatchObject({ status: 'paid' });
  });

  it('clear the link’s own count too, so the payer keeps the link they were sent', async () => {
    const invoice = await issuedInvoice();
    await declineUpToTheCap(invoice.invoiceUrlSlug);
    const key = newKey();
    const cleared = await invoiceAction(
      t.api,
      merchantId,
      invoice.invoiceId,
      'clear-pay-link-declines',
      {},
      key,
    );
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.invoiceUrlSlug).toBe(invoice.invoiceUrlSlug);
    // The clear is idempotent like every change: the same key replays, another body is a 422.
    const replay = await invoiceAction(
      t.api,
      merchantId,
      invoice.invoiceId,
      'clear-pay-link-declines',
      {},
      key,
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(JSON.stringify(replay.body)).toBe(JSON.stringify(cleared.body));
    const paid = await pay(invoice.invoiceUrlSlug, testCard(cards.succeeds));
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  });

  it('can’t be cleared by another merchant', async () => {
    const invoice = await issuedInvoice();
    await declineUpToTheCap(invoice.invoiceUrlSlug);
    const other = await t.anotherMerchant();
    const before = await t.scanTable();
    const own = await invoiceAction(
      other.api,
      other.merchantId,
      invoice.invoiceId,
      'clear-pay-link-declines',
    );
    expect(own.status, JSON.stringify(own.body)).toBe(404);
    expect(own.body.error.code).toBe('not_found');
    const foreign = await invoiceAction(other.api, merchantId, invoice.invoiceId, 'clear-pay-link-declines');
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(403);
    expect(foreign.body.error.code).toBe('forbidden');
    const after = await t.scanTable();
    const invoiceItem = (items: Record<string, unknown>[]) =>
      items.find((item) => item.entityType === 'Invoice' && item.invoiceId === invoice.invoiceId);
    expect(invoiceItem(after)).toEqual(invoiceItem(before));
    expect(await declinedAt(invoice.invoiceId)).toHaveLength(perSlug);
    expectRefused(await pay(invoice.invoiceUrlSlug, testCard(cards.succeeds)));
  });
});
