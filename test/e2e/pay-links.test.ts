import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { invoiceSlugHash } from '../../functions/domain/invoice-slug';
import { PayerDecline } from '../../functions/domain/pay-link-declines';
import { documentClient } from '../../functions/store/client';
import { keys } from '../../functions/store/keys';
import { e2eInvoiceFile, merchantId, refs, t } from '../support/e2e-test';
import {
  createInvoice,
  expectOk,
  invoiceAction,
  invoiceBody,
  issueTaxedInvoice,
} from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import {
  type ApiClient,
  apiClient,
  dynamoDbCommandsDuring,
  newKey,
  startTestRuntime,
} from '../support/local-runtime';
import { bankAccounts, cards, eventsWhere, testBankAccount, testCard } from '../support/payment-requests';
import { eventPayloadFields, payloadFieldsOf } from '../support/spec-fields';

const test = e2eInvoiceFile();
/** The public routes take no API key: every call here goes without an Authorization header. */
let publicApi: ApiClient;

test.beforeAll(() => {
  publicApi = apiClient(t.runtime.baseUrl, 'unused');
});

const noKey = { authorization: null } as const;

/** An issued invoice of 2 × 1250 + 250 tax = 2750 USD; returns its merchant-facing body. */
const issuedInvoice = (fields: Record<string, unknown> = {}) =>
  issueTaxedInvoice(t.api, merchantId, refs, { dueDate: '2027-01-31T00:00:00.000Z', ...fields });

const view = (slug: string) => publicApi('POST', '/pay/invoice', { ...noKey, body: { slug } });

const pay = (slug: string, amount: number, paymentMethod: unknown, key = newKey()) =>
  publicApi('POST', '/pay/payments', {
    ...noKey,
    body: { slug, amount, paymentMethod },
    idempotencyKey: key,
  });

const merchantView = async (invoiceId: string) =>
  expectOk(await t.api('GET', `/invoices/${invoiceId}`, { query: { merchantId } }));

const invoiceItem = async (invoiceId: string) =>
  (
    await documentClient().send(
      new GetCommand({
        TableName: t.runtime.tableName,
        Key: keys.invoice(merchantId, invoiceId),
        ConsistentRead: true,
      }),
    )
  ).Item as Record<string, unknown>;

/**
 * Takes attributes off an invoice item as it is stored: the pay-link index key makes it an invoice
 * the index has not caught up with; with the issuer's name, one written before either existed.
 */
const strip = (invoiceId: string, attributes: readonly string[]) =>
  documentClient().send(
    new UpdateCommand({
      TableName: t.runtime.tableName,
      Key: keys.invoice(merchantId, invoiceId),
      UpdateExpression: `REMOVE ${attributes.join(', ')}`,
    }),
  );

describe('POST /pay/invoice', () => {
  it('shows the payer the invoice behind a slug, without an API key and without ids or the slug', async () => {
    const invoice = await issuedInvoice();
    const result = await view(invoice.invoiceUrlSlug);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      merchantName: expect.any(String),
      invoiceNumber: invoice.invoiceNumber,
      status: 'issued',
      currency: 'USD',
      lineItems: [
        { description: 'Green tea', quantity: 2, unitAmount: 1250, lineTotal: 2500 },
        { description: 'Sales tax', quantity: 1, unitAmount: 250, lineTotal: 250 },
      ],
      productTotal: { amount: 2500, currency: 'USD' },
      total: { amount: 2750, currency: 'USD' },
      amountPaid: { amount: 0, currency: 'USD' },
      amountRemaining: { amount: 2750, currency: 'USD' },
      dueDate: '2027-01-31T00:00:00.000Z',
      paidAt: null,
      acceptedPaymentMethods: ['card', 'bank_account'],
      payOn: 'pay_page',
    });
    const text = JSON.stringify(result.body);
    for (const secret of [invoice.invoiceUrlSlug, invoice.invoiceId, invoice.customerId, merchantId]) {
      expect(text).not.toContain(secret);
    }
  });

  it('costs one Query of the pay-link index, which holds the invoice and its issuer’s name', async () => {
    const invoice = await issuedInvoice();
    await view(invoice.invoiceUrlSlug);
    const commands = await dynamoDbCommandsDuring(async () => {
      expect((await view(invoice.invoiceUrlSlug)).status).toBe(200);
    });
    expect(commands).toEqual(['QueryCommand']);
  });

  it('names the merchant from the invoice item, where the create kept it, and shows the merchant no new field', async () => {
    const invoice = await issuedInvoice();
    const merchant = (await t.scanTable()).find(
      (item) => item.entityType === 'Merchant' && item.merchantId === merchantId,
    );
    expect(merchant?.name).toEqual(expect.any(String));
    expect((await invoiceItem(invoice.invoiceId)).merchantName).toBe(merchant?.name);
    expect(expectOk(await view(invoice.invoiceUrlSlug)).merchantName).toBe(merchant?.name);
    expect(await merchantView(invoice.invoiceId)).not.toHaveProperty('merchantName');
  });

  it('indexes an invoice by its slug’s hash once it is issued, never by the slug', async () => {
    const draft = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs)));
    expect(await invoiceItem(draft.invoiceId)).not.toHaveProperty('GSI3PK');
    const issued = expectOk(await invoiceAction(t.api, merchantId, draft.invoiceId, 'issue'));
    expect((await invoiceItem(draft.invoiceId)).GSI3PK).toBe(
      `INVOICE_SLUG#${invoiceSlugHash(issued.invoiceUrlSlug)}`,
    );
  });

  it('finds a slug the index does not show yet through its lookup item', async () => {
    const invoice = await issuedInvoice();
    await strip(invoice.invoiceId, ['GSI3PK']);
    const commands = await dynamoDbCommandsDuring(async () => {
      const result = await view(invoice.invoiceUrlSlug);
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ invoiceNumber: invoice.invoiceNumber, status: 'issued' });
    });
    expect(commands).toEqual(['QueryCommand', 'GetItemCommand', 'GetItemCommand']);
  });

  it('answers the same neutral 404 for a wrong, a rotated and a draft invoice’s slug', async () => {
    const invoice = await issuedInvoice();
    const rotated = expectOk(await invoiceAction(t.api, merchantId, invoice.invoiceId, 'rotate-url-slug'));
    const draft = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs)));
    const wrongSlug = `${invoice.invoiceUrlSlug.slice(0, -1)}${invoice.invoiceUrlSlug.endsWith('A') ? 'B' : 'A'}`;
    for (const slug of [wrongSlug, invoice.invoiceUrlSlug, draft.invoiceUrlSlug, 'x']) {
      const result = await view(slug);
      expect(result.status).toBe(404);
      expect(result.body.error).toMatchObject({ code: 'not_found', message: 'Invoice not found.' });
    }
    expect((await view(rotated.invoiceUrlSlug)).status).toBe(200);
  });

  it('refuses a body without a slug with a 400', async () => {
    const result = await publicApi('POST', '/pay/invoice', { ...noKey, body: {} });
    expect(result.status).toBe(400);
    expect(result.body.error.details).toEqual([{ path: 'slug', message: 'slug is required.' }]);
  });
});

describe('POST /pay/payments', () => {
  it('pays the amount remaining: the invoice is paid, with PaymentCreated and InvoicePaid', async () => {
    const invoice = await issuedInvoice();
    const result = await pay(invoice.invoiceUrlSlug, 2750, testCard(cards.succeeds));
    expect(result.status).toBe(201);
    expect(result.body.payment).toEqual({
      paymentId: expect.stringMatching(/^pmt_/),
      status: 'completed',
      amount: 2750,
      currency: 'USD',
      paymentMethodType: 'card',
      declineCode: null,
      declineMessage: null,
      createdAt: expect.any(String),
    });
    expect(result.body.invoice).toMatchObject({
      status: 'paid',
      amountPaid: { amount: 2750, currency: 'USD' },
      amountRemaining: { amount: 0, currency: 'USD' },
      paidAt: result.body.payment.createdAt,
    });

    const paid = await merchantView(invoice.invoiceId);
    expect(paid).toMatchObject({
      status: 'paid',
      amountPaid: { amount: 2750 },
      amountRemaining: { amount: 0 },
    });
    expect(paid.currentRevisionNumber).toBe(invoice.currentRevisionNumber + 1);
    const payment = expectOk(
      await t.api('GET', `/payments/${result.body.payment.paymentId}`, { query: { merchantId } }),
    );
    expect(payment).toMatchObject({
      invoiceId: invoice.invoiceId,
      customerId: invoice.customerId,
      amount: 2750,
      status: 'completed',
      processor: 'sandbox',
    });

    const items = await t.scanTable();
    const [created] = eventsWhere(items, 'payments.PaymentCreated', 'paymentId', payment.paymentId);
    expect(payloadFieldsOf(created)).toEqual(eventPayloadFields['payments.PaymentCreated']);
    expect(created.payload).toMatchObject({ amount: 2750, customerId: invoice.customerId, priceId: null });
    const [invoicePaid, ...more] = eventsWhere(items, 'invoices.InvoicePaid', 'invoiceId', invoice.invoiceId);
    expect(more).toEqual([]);
    expect(payloadFieldsOf(invoicePaid)).toEqual(eventPayloadFields['invoices.InvoicePaid']);
    expect(invoicePaid.payload).toEqual({
      invoiceId: invoice.invoiceId,
      merchantId,
      customerId: invoice.customerId,
      invoiceNumber: invoice.invoiceNumber,
      amount: 2750,
      currency: 'USD',
      paidAt: paid.paidAt,
    });
    const invoiceItem = items.find(
      (item) => item.entityType === 'Invoice' && item.invoiceId === invoice.invoiceId,
    );
    expect(invoiceItem?.processorCallId).toBeUndefined();
  });

  it('costs one read and two transactions: the reservation, then the payment with its events', async () => {
    const invoice = await issuedInvoice();
    await view(invoice.invoiceUrlSlug);
    const commands = await dynamoDbCommandsDuring(async () => {
      expect((await pay(invoice.invoiceUrlSlug, 2750, testCard(cards.succeeds))).status).toBe(201);
    });
    expect(commands).toEqual(['QueryCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand']);
  });

  it('refuses a rotated-out slug with the neutral 404', async () => {
    const invoice = await issuedInvoice();
    expectOk(await invoiceAction(t.api, merchantId, invoice.invoiceId, 'rotate-url-slug'));
    const result = await pay(invoice.invoiceUrlSlug, 2750, testCard(cards.succeeds));
    expect(result.status).toBe(404);
    expect(result.body.error).toMatchObject({ code: 'not_found', message: 'Invoice not found.' });
    expect((await merchantView(invoice.invoiceId)).status).toBe('issued');
  });

  it('never pays through an index entry that still shows a rotated-out slug', async () => {
    const invoice = await issuedInvoice();
    const rotated = expectOk(await invoiceAction(t.api, merchantId, invoice.invoiceId, 'rotate-url-slug'));
    // The index a moment behind the rotation: an entry under the old slug's hash showing the invoice
    // at its current revision, so only the slug itself can tell it is stale.
    const current = await invoiceItem(invoice.invoiceId);
    const stale = {
      ...current,
      PK: `STALE#${invoice.invoiceId}`,
      SK: 'STALE',
      entityType: 'StaleIndexEntry',
      GSI3PK: `INVOICE_SLUG#${invoiceSlugHash(invoice.invoiceUrlSlug)}`,
      GSI1PK: undefined,
      GSI1SK: undefined,
      GSI2PK: undefined,
      GSI2SK: undefined,
    };
    await documentClient().send(new PutCommand({ TableName: t.runtime.tableName, Item: stale }));
    try {
      expect(expectOk(await view(invoice.invoiceUrlSlug)).status).toBe('issued');
      const result = await pay(invoice.invoiceUrlSlug, 2750, testCard(cards.succeeds));
      expect(result.status).toBe(404);
      expect(result.body.error).toMatchObject({ code: 'not_found', message: 'Invoice not found.' });
      expect(await invoiceItem(invoice.invoiceId)).toEqual(current);
      const payments = (await t.scanTable()).filter(
        (item) => item.entityType === 'Payment' && item.invoiceId === invoice.invoiceId,
      );
      expect(payments).toEqual([]);
      expect(expectOk(await pay(rotated.invoiceUrlSlug, 2750, testCard(cards.succeeds))).invoice.status).toBe(
        'paid',
      );
    } finally {
      await documentClient().send(
        new DeleteCommand({ TableName: t.runtime.tableName, Key: { PK: stale.PK, SK: stale.SK } }),
      );
    }
  });

  it('pays what remains of a partially paid invoice', async () => {
    const invoice = await issuedInvoice();
    expectOk(await invoiceAction(t.api, merchantId, invoice.invoiceId, 'payments', { amount: 750 }));
    const shown = expectOk(await view(invoice.invoiceUrlSlug));
    expect(shown).toMatchObject({ status: 'partially_paid', amountRemaining: { amount: 2000 } });
    const result = expectOk(await pay(invoice.invoiceUrlSlug, 2000, testBankAccount(bankAccounts.succeeds)));
    expect(result.invoice).toMatchObject({ status: 'paid', amountPaid: { amount: 2750 } });
    expect(result.payment.paymentMethodType).toBe('bank_account');
  });

  it('keeps a declined payment, leaves the invoice as it was and emits PaymentDeclined', async () => {
    const invoice = await issuedInvoice();
    const result = await pay(invoice.invoiceUrlSlug, 2750, testCard(cards.declined));
    expect(result.status).toBe(201);
    expect(result.body.payment).toMatchObject({
      status: 'declined',
      declineCode: 'payment_declined',
      declineMessage: PayerDecline.message,
    });
    expect(result.body.invoice).toMatchObject({ status: 'issued', amountRemaining: { amount: 2750 } });
    const after = await merchantView(invoice.invoiceId);
    expect(after).toMatchObject({ status: 'issued', currentRevisionNumber: invoice.currentRevisionNumber });
    const items = await t.scanTable();
    const [declined] = eventsWhere(
      items,
      'payments.PaymentDeclined',
      'paymentId',
      result.body.payment.paymentId,
    );
    expect(payloadFieldsOf(declined)).toEqual(eventPayloadFields['payments.PaymentDeclined']);
    const invoiceItem = items.find(
      (item) => item.entityType === 'Invoice' && item.invoiceId === invoice.invoiceId,
    );
    expect(invoiceItem?.processorCallId).toBeUndefined();
    // The payer can try again at once.
    expect((await pay(invoice.invoiceUrlSlug, 2750, testCard(cards.succeeds))).body.invoice.status).toBe(
      'paid',
    );
  });

  it('refuses to pay a paid or void invoice, or an amount that is no longer the amount remaining', async () => {
    const paid = await issuedInvoice();
    expectOk(await pay(paid.invoiceUrlSlug, 2750, testCard(cards.succeeds)));
    const again = await pay(paid.invoiceUrlSlug, 2750, testCard(cards.succeeds));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');

    const voided = await issuedInvoice();
    expectOk(await invoiceAction(t.api, merchantId, voided.invoiceId, 'void'));
    const onVoid = await pay(voided.invoiceUrlSlug, 2750, testCard(cards.succeeds));
    expect(onVoid.status).toBe(409);
    expect(expectOk(await view(voided.invoiceUrlSlug)).status).toBe('void');

    const changed = await issuedInvoice();
    const stale = await pay(changed.invoiceUrlSlug, 2000, testCard(cards.succeeds));
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toContain('amount due has changed');
    expect((await merchantView(changed.invoiceId)).status).toBe('issued');
  });

  it('offers only the invoice’s accepted payment methods', async () => {
    const invoice = await issuedInvoice({ acceptedPaymentMethods: ['bank_account'] });
    const result = await pay(invoice.invoiceUrlSlug, 2750, testCard(cards.succeeds));
    expect(result.status).toBe(400);
    expect(result.body.error.details).toEqual([
      { path: 'paymentMethod.type', message: 'must be bank_account.' },
    ]);
  });

  it('answers a wrong slug with the neutral 404', async () => {
    const result = await pay('no-such-slug', 2750, testCard(cards.succeeds));
    expect(result.status).toBe(404);
    expect(result.body.error.message).toBe('Invoice not found.');
  });

  it('requires an Idempotency-Key and replays a retry', async () => {
    const invoice = await issuedInvoice();
    const body = { slug: invoice.invoiceUrlSlug, amount: 2750, paymentMethod: testCard(cards.succeeds) };
    const missing = await publicApi('POST', '/pay/payments', { ...noKey, body });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('idempotency_key_required');
    const key = newKey();
    const first = await pay(invoice.invoiceUrlSlug, 2750, testCard(cards.succeeds), key);
    const retry = await pay(invoice.invoiceUrlSlug, 2750, testCard(cards.succeeds), key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
  });

  it('keeps one payer’s Idempotency-Key apart from another invoice’s payer using the same key', async () => {
    const [first, second] = [await issuedInvoice(), await issuedInvoice()];
    const key = newKey();
    const paidFirst = await pay(first.invoiceUrlSlug, 2750, testCard(cards.succeeds), key);
    const paidSecond = await pay(second.invoiceUrlSlug, 2750, testCard(cards.succeeds), key);
    expect(paidFirst.status).toBe(201);
    expect(paidSecond.status, JSON.stringify(paidSecond.body)).toBe(201);
    expect(paidSecond.headers.get('idempotent-replayed')).toBeNull();
    expect((await merchantView(first.invoiceId)).status).toBe('paid');
    expect((await merchantView(second.invoiceId)).status).toBe('paid');
  });

  it('lets only one of five concurrent payers pay an invoice', async () => {
    const invoice = await issuedInvoice();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => pay(invoice.invoiceUrlSlug, 2750, testCard(cards.succeeds))),
    );
    const completed = results.filter((result) => result.status === 201);
    expect(completed).toHaveLength(1);
    for (const result of results.filter((r) => r.status !== 201)) {
      expect(result.status).toBe(409);
      expect(['invalid_state', 'payment_in_progress']).toContain(result.body.error.code);
    }
    const payments = (await t.scanTable()).filter(
      (item) => item.entityType === 'Payment' && item.invoiceId === invoice.invoiceId,
    );
    expect(payments).toHaveLength(1);
    expect((await merchantView(invoice.invoiceId)).amountPaid.amount).toBe(2750);
  });

  it('holds off the merchant’s changes while a payment of the invoice is at the processor', async () => {
    const invoice = await issuedInvoice();
    const lock = (until: number) =>
      documentClient().send(
        new UpdateCommand({
          TableName: t.runtime.tableName,
          Key: keys.invoice(merchantId, invoice.invoiceId),
          UpdateExpression: 'SET processorCallId = :id, processorCallUntil = :until',
          ExpressionAttributeValues: { ':id': 'pmt_in_flight', ':until': until },
        }),
      );
    await lock(Date.now() + 60_000);
    const blocked = await invoiceAction(t.api, merchantId, invoice.invoiceId, 'void');
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.code).toBe('payment_in_progress');
    const otherPayer = await pay(invoice.invoiceUrlSlug, 2750, testCard(cards.succeeds));
    expect(otherPayer.status).toBe(409);
    expect(otherPayer.body.error.code).toBe('payment_in_progress');
    expect((await merchantView(invoice.invoiceId)).status).toBe('issued');
    // A lease that ran out (its function died) holds nothing.
    await lock(Date.now() - 1);
    expect(expectOk(await invoiceAction(t.api, merchantId, invoice.invoiceId, 'void')).status).toBe('void');
  });
});

describe('GET /pay', () => {
  it('serves the pay page as HTML with a strict content security policy', async () => {
    const response = await fetch(new URL('/pay', t.runtime.baseUrl));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await response.text()).toContain('<html');
  });
});

describe('rate limit of the public routes', () => {
  it('answers 429 rate_limited past the per-address limit, and leaves merchant routes alone', async () => {
    const limited = await startTestRuntime({ PUBLIC_RATE_LIMIT_PER_MINUTE: 3 });
    try {
      const anonymous = apiClient(limited.runtime.baseUrl, 'unused');
      const statuses: number[] = [];
      for (let index = 0; index < 4; index += 1) {
        statuses.push((await anonymous('POST', '/pay/invoice', { ...noKey, body: { slug: 'nope' } })).status);
      }
      expect(statuses).toEqual([404, 404, 404, 429]);
      const refused = await anonymous('POST', '/pay/invoice', { ...noKey, body: { slug: 'nope' } });
      expect(refused.body).toEqual({
        error: { code: 'rate_limited', message: expect.any(String), requestId: expect.any(String) },
      });
      const merchantRoute = await limited.api('GET', '/customers', {
        query: { merchantId: limited.runtime.merchantId },
      });
      expect(merchantRoute.status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});

describe('the production stage', () => {
  it('has no /sandbox routes and no card form (404), refuses a checkout without an account (409), and shows pay links', async () => {
    const production = await startTestRuntime({ STAGE: 'production' });
    try {
      const prodMerchant = production.runtime.merchantId;
      const payment = await production.api('POST', '/sandbox/payments', {
        body: { merchantId: prodMerchant },
        idempotencyKey: newKey(),
      });
      expect(payment.status).toBe(404);
      expect(payment.body.error.code).toBe('not_found');
      for (const path of ['/sandbox/payouts', '/sandbox/payments/pmt_01h455vb4pex5vsknk084sn02q/refunds']) {
        expect((await production.api('POST', path, { body: {}, idempotencyKey: newKey() })).status).toBe(404);
      }

      const prodRefs = await invoiceFixtures(production.api, prodMerchant);
      const created = expectOk(await createInvoice(production.api, invoiceBody(prodMerchant, prodRefs)));
      const invoice = expectOk(await invoiceAction(production.api, prodMerchant, created.invoiceId, 'issue'));
      const anonymous = apiClient(production.runtime.baseUrl, 'unused');
      const shown = await anonymous('POST', '/pay/invoice', {
        ...noKey,
        body: { slug: invoice.invoiceUrlSlug },
      });
      expect(shown.status).toBe(200);
      expect(shown.body.payOn).toBe('processor_checkout');
      // Card numbers never reach production: the card form's route is the sandbox's only.
      const paid = await anonymous('POST', '/pay/payments', {
        ...noKey,
        body: { slug: invoice.invoiceUrlSlug, amount: 2500, paymentMethod: testCard(cards.succeeds) },
        idempotencyKey: newKey(),
      });
      expect(paid.status).toBe(404);
      // A merchant with no linked processor account is refused before anything reaches Stripe.
      const checkout = await anonymous('POST', '/pay/checkout-sessions', {
        ...noKey,
        body: {
          slug: invoice.invoiceUrlSlug,
          amount: invoice.amountRemaining.amount,
          paymentMethodType: 'card',
        },
        idempotencyKey: newKey(),
      });
      expect(checkout.status).toBe(409);
      const after = expectOk(
        await production.api('GET', `/invoices/${invoice.invoiceId}`, {
          query: { merchantId: prodMerchant },
        }),
      );
      expect(after).toMatchObject({ status: 'issued', currentRevisionNumber: invoice.currentRevisionNumber });
      expect((await production.scanTable()).filter((item) => item.entityType === 'Payment')).toEqual([]);
    } finally {
      await production.stop();
    }
  });
});
