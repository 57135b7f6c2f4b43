import { describe, expect, it } from 'vitest';
import { merchantShardOfId } from '../../functions/domain/merchant-shards';
import { shardLeadMs } from '../../functions/domain/shard-history';
import { EntityType, keys } from '../../functions/store/keys';
import { raiseMerchantShardCount } from '../../tools/admin/merchant-shards';
import { e2eInvoiceFile, merchantId, refs, t } from '../support/e2e-test';
import {
  createInvoice,
  expectOk,
  invoiceAction,
  invoiceBody,
  productLine,
} from '../support/invoice-requests';
import { type ApiClient, apiClient, dynamoDbCommandsDuring, newKey } from '../support/local-runtime';
import { cards, sandboxPayment, testCard } from '../support/payment-requests';

/**
 * A merchant whose payments, refunds, invoices and payouts spread over 4 partitions, written and
 * read through the API. The authorizer runs on every request (no answer cache), so each request
 * sees the history as it is stored.
 */
const test = e2eInvoiceFile({ AUTH_CACHE_SECONDS: 0 });
const publicApi = () => apiClient(t.runtime.baseUrl, 'unused');
const noKey = { authorization: null } as const;

const paymentsBefore: string[] = [];
const paymentsAfter: string[] = [];
const invoicesBefore: string[] = [];
const invoicesAfter: string[] = [];
/** A cursor of the payments list taken while the merchant had one partition. */
let cursorOfOnePartition: string;

test.beforeAll(async () => {
  for (let index = 0; index < 3; index += 1) {
    paymentsBefore.push(await pay(t.api));
    invoicesBefore.push(await issuedInvoice());
  }
  const first = expectOk(await t.api('GET', '/payments', { query: { merchantId, limit: 1 } }));
  cursorOfOnePartition = first.page.nextCursor;
  // As an operator raises it, with the ten minutes of lead already passed: in force from now.
  await raiseMerchantShardCount(merchantId, 4, { now: new Date(Date.now() - shardLeadMs) });
  for (let index = 0; index < 24; index += 1) paymentsAfter.push(await pay(t.api));
  for (let index = 0; index < 12; index += 1) invoicesAfter.push(await issuedInvoice());
}, 120_000);

async function pay(api: ApiClient): Promise<string> {
  const body = { merchantId, customerId: refs.customerId, amount: 1000, currency: 'USD' };
  const created = expectOk(await sandboxPayment(api, { ...body, paymentMethod: testCard(cards.succeeds) }));
  return created.paymentId ?? created.id;
}

async function issuedInvoice(): Promise<string> {
  const created = expectOk(
    await createInvoice(t.api, invoiceBody(merchantId, refs, { lineItems: [productLine(refs, 1)] })),
  );
  expectOk(await invoiceAction(t.api, merchantId, created.invoiceId, 'issue'));
  return created.invoiceId;
}

/** Every item of a list, page after page, and the number of pages. */
async function listAll(path: string, query: Record<string, string | number>) {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await t.api('GET', path, {
      query: { ...query, ...(cursor === undefined ? {} : { cursor }) },
    });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    ids.push(...page.body.items.map((item: any) => item.paymentId ?? item.invoiceId ?? item.id));
    expect(page.body.page.hasMore).toBe(page.body.page.nextCursor !== undefined);
    cursor = page.body.page.nextCursor;
    pages += 1;
  } while (cursor !== undefined);
  return { ids, pages };
}

const newestFirst = (ids: readonly string[]) => [...ids].sort().reverse();

async function storedOf(entityType: string) {
  return (await t.scanTable()).filter(
    (item) => item.entityType === entityType && item.merchantId === merchantId,
  );
}

describe('a merchant with 4 write shards', () => {
  it('keeps what was written before the raise in its own partition, with UUIDv7 ids', async () => {
    const stored = await storedOf(EntityType.payment);
    for (const id of [...paymentsBefore, ...invoicesBefore]) expect(merchantShardOfId(id)).toBe(0);
    for (const id of paymentsBefore) {
      expect(stored.find((item) => item.paymentId === id)?.PK).toBe(`MERCHANT#${merchantId}`);
    }
  });

  it('spreads new payments and invoices over the 4 partitions, each id naming its shard', async () => {
    const payments = await storedOf(EntityType.payment);
    const invoices = await storedOf(EntityType.invoice);
    const paymentShards = new Set(paymentsAfter.map(merchantShardOfId));
    const invoiceShards = new Set(invoicesAfter.map(merchantShardOfId));
    // 24 payments over 4 shards all in fewer than 3 has a chance of 4·(3/4)^24 ≈ 0.4 %; 2 is enough.
    expect(paymentShards.size).toBeGreaterThanOrEqual(2);
    expect(invoiceShards.size).toBeGreaterThanOrEqual(2);
    for (const shard of [...paymentShards, ...invoiceShards]) expect(shard).toBeLessThan(4);
    for (const id of paymentsAfter) {
      const shard = merchantShardOfId(id);
      expect(payments.find((item) => item.paymentId === id)?.PK).toBe(
        keys.merchantShardPartition(merchantId, shard),
      );
    }
    for (const id of invoicesAfter) {
      const item = invoices.find((stored) => stored.invoiceId === id);
      const shard = merchantShardOfId(id);
      expect(item?.PK).toBe(keys.merchantShardPartition(merchantId, shard));
      expect(item?.GSI1PK).toBe(keys.invoicesWithStatusPartition(merchantId, 'issued', shard));
    }
  });

  it('reads each payment and invoice by id in one GetItem', async () => {
    for (const id of [...paymentsBefore, ...paymentsAfter]) {
      expect((await t.api('GET', `/payments/${id}`, { query: { merchantId } })).status).toBe(200);
    }
    for (const id of [...invoicesBefore, ...invoicesAfter]) {
      expect((await t.api('GET', `/invoices/${id}`, { query: { merchantId } })).status).toBe(200);
    }
    const id = paymentsAfter.find((paymentId) => merchantShardOfId(paymentId) !== 0) ?? '';
    const commands = await dynamoDbCommandsDuring(async () => {
      expect((await t.api('GET', `/payments/${id}`, { query: { merchantId } })).status).toBe(200);
    });
    expect(commands).toEqual(['GetItemCommand']);
  });

  it('lists every payment once, newest first, across shards and pages', async () => {
    const all = newestFirst([...paymentsBefore, ...paymentsAfter]);
    for (const limit of [1, 5, 27, 100]) {
      const { ids, pages } = await listAll('/payments', { merchantId, limit });
      expect(ids).toEqual(all);
      expect(pages).toBe(Math.max(1, Math.ceil(all.length / limit)));
    }
  });

  it('reads a page of a merchant with 4 shards in one Query per shard, run together', async () => {
    const commands = await dynamoDbCommandsDuring(async () => {
      expect((await t.api('GET', '/payments', { query: { merchantId, limit: 5 } })).status).toBe(200);
    });
    expect(commands).toEqual(Array.from({ length: 4 }, () => 'QueryCommand'));
  });

  it('filters by time across shards, and reads only shard 0 for a range before the raise', async () => {
    const all = newestFirst([...paymentsBefore, ...paymentsAfter]);
    const middle = all[10] ?? '';
    const stored = await storedOf(EntityType.payment);
    const createdAt = (id: string) => String(stored.find((item) => item.paymentId === id)?.createdAt);
    const from = await listAll('/payments', { merchantId, limit: 4, createdFrom: createdAt(middle) });
    expect(from.ids).toEqual(all.filter((id) => createdAt(id) >= createdAt(middle)));
    const oldest = paymentsBefore.at(-1) ?? '';
    const commands = await dynamoDbCommandsDuring(async () => {
      const page = await t.api('GET', '/payments', { query: { merchantId, createdTo: createdAt(oldest) } });
      expect(page.body.items.map((item: any) => item.paymentId)).toEqual(newestFirst(paymentsBefore));
    });
    expect(commands).toEqual(['QueryCommand']);
  });

  it('goes on from a cursor issued before the raise', async () => {
    const rest: string[] = [];
    let cursor: string | undefined = cursorOfOnePartition;
    while (cursor !== undefined) {
      const page = await t.api('GET', '/payments', { query: { merchantId, limit: 1, cursor } });
      expect(page.status).toBe(200);
      rest.push(...page.body.items.map((item: any) => item.paymentId));
      cursor = page.body.page.nextCursor;
    }
    expect(rest).toEqual(newestFirst(paymentsBefore).slice(1));
  });

  it('lists every invoice once, all of them and by status, across shards and pages', async () => {
    const all = newestFirst([...invoicesBefore, ...invoicesAfter]);
    for (const limit of [1, 4, 15]) {
      expect((await listAll('/invoices', { merchantId, limit })).ids).toEqual(all);
      expect((await listAll('/invoices', { merchantId, limit, status: 'issued' })).ids).toEqual(all);
    }
    expect((await listAll('/invoices', { merchantId, customerId: refs.customerId, limit: 4 })).ids).toEqual(
      all,
    );
  });

  it('refunds a payment in its shard and lists its refunds in one Query beside the payment read', async () => {
    const id = paymentsAfter.find((paymentId) => merchantShardOfId(paymentId) !== 0) ?? '';
    const refund = expectOk(
      await t.api('POST', `/sandbox/payments/${id}/refunds`, {
        body: { merchantId, amount: 400 },
        idempotencyKey: newKey(),
      }),
    );
    const refunds = await storedOf(EntityType.refund);
    expect(refunds.find((item) => item.id === refund.id)?.PK).toBe(keys.partitionOfId(merchantId, id));
    const commands = await dynamoDbCommandsDuring(async () => {
      const listed = expectOk(await t.api('GET', `/payments/${id}/refunds`, { query: { merchantId } }));
      expect(listed.items.map((item: any) => item.id)).toEqual([refund.id]);
    });
    expect([...commands].sort()).toEqual(['GetItemCommand', 'QueryCommand']);
    const fetched = await t.api('GET', `/payments/${id}/refunds/${refund.id}`, { query: { merchantId } });
    expect(fetched.status).toBe(200);
    const payment = expectOk(await t.api('GET', `/payments/${id}`, { query: { merchantId } }));
    expect(payment.amountRefunded).toBe(400);
  });

  it('puts a pay-link payment in its invoice’s shard, and lists the invoice as paid', async () => {
    const invoiceId = invoicesAfter.find((id) => merchantShardOfId(id) !== 0) ?? '';
    const invoice = expectOk(await t.api('GET', `/invoices/${invoiceId}`, { query: { merchantId } }));
    const paid = await publicApi()('POST', '/pay/payments', {
      ...noKey,
      body: {
        slug: invoice.invoiceUrlSlug,
        amount: invoice.amountRemaining.amount,
        paymentMethod: testCard(cards.succeeds),
      },
      idempotencyKey: newKey(),
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const paymentId = paid.body.paymentId ?? paid.body.payment?.paymentId;
    const payments = await storedOf(EntityType.payment);
    const stored = payments.find((item) => item.invoiceId === invoiceId);
    expect(stored?.PK).toBe(keys.partitionOfId(merchantId, invoiceId));
    if (paymentId !== undefined) expect(merchantShardOfId(paymentId)).toBe(merchantShardOfId(invoiceId));
    expect((await listAll('/invoices', { merchantId, status: 'paid', limit: 2 })).ids).toEqual([invoiceId]);
    const payment = String(stored?.paymentId);
    expect((await t.api('GET', `/payments/${payment}`, { query: { merchantId } })).status).toBe(200);
  });

  it('keeps writing to shard 0 while a raise waits for its time, and lists read its shards already', async () => {
    const other = await t.anotherMerchant();
    await raiseMerchantShardCount(other.merchantId, 8);
    const customer = expectOk(
      await other.api('POST', '/customers', {
        body: { merchantId: other.merchantId, name: 'Ada', email: 'ada@example.com' },
        idempotencyKey: newKey(),
      }),
    );
    const body = {
      merchantId: other.merchantId,
      customerId: customer.customerId,
      amount: 1000,
      currency: 'USD',
    };
    const created = expectOk(
      await sandboxPayment(other.api, { ...body, paymentMethod: testCard(cards.succeeds) }),
    );
    expect(merchantShardOfId(created.paymentId)).toBe(0);
    const commands = await dynamoDbCommandsDuring(async () => {
      const listed = expectOk(
        await other.api('GET', '/payments', { query: { merchantId: other.merchantId } }),
      );
      expect(listed.items.map((item: any) => item.paymentId)).toEqual([created.paymentId]);
    });
    expect(commands).toEqual(Array.from({ length: 8 }, () => 'QueryCommand'));
  });
});
