import { describe, expect, it } from 'vitest';
import {
  type FaultPlan,
  throttled,
  transactionConflict,
  withDynamoDbFaults,
} from '../support/dynamodb-faults';
import { e2eInvoiceFile, merchantId, refs, t } from '../support/e2e-test';
import { createInvoice, expectOk, invoiceAction, invoiceBody } from '../support/invoice-requests';
import { type ApiResult, newKey } from '../support/local-runtime';
import { cards, sandboxPayment, testCard } from '../support/payment-requests';

e2eInvoiceFile();

type Item = Record<string, unknown>;

/** What a request wrote: the entity types of the items it added and of those it changed, sorted. */
/** What the mail pipeline writes after a request, in the background: no part of the request's change. */
const mailPipelineWrites = new Set(['InvoiceEmail', 'EmailHourCount']);

function changeOf(before: Item[], after: Item[]): { added: string[]; changed: string[] } {
  const keyOf = (item: Item) => `${item.PK}|${item.SK}`;
  const earlier = new Map(before.map((item) => [keyOf(item), JSON.stringify(item)]));
  const added: string[] = [];
  const changed: string[] = [];
  for (const item of after.filter((candidate) => !mailPipelineWrites.has(String(candidate.entityType)))) {
    const was = earlier.get(keyOf(item));
    if (was === undefined) added.push(String(item.entityType));
    else if (was !== JSON.stringify(item)) changed.push(String(item.entityType));
  }
  return { added: added.sort(), changed: changed.sort() };
}

/** Runs `request` under `plan` and reports its answer, how many sends failed and what it wrote. */
async function underFaults(plan: FaultPlan, request: () => Promise<ApiResult>) {
  const before = await t.scanTable();
  const { result, faulted } = await withDynamoDbFaults(plan, request);
  return { response: result, faulted, change: changeOf(before, await t.scanTable()) };
}

/** The generic 500 of the error shape: a code, a fixed message and the request id, nothing else. */
function expectCleanInternalError(response: ApiResult): void {
  expect(response.status).toBe(500);
  expect(response.body).toEqual({
    error: {
      code: 'internal_error',
      message: 'An internal error occurred.',
      requestId: response.headers.get('x-request-id') ?? expect.any(String),
    },
  });
}

const nothing = { added: [], changed: [] };

const createProduct = (key: string) => () =>
  t.api('POST', '/catalog/products', { body: { merchantId, name: 'Oolong' }, idempotencyKey: key });

async function draftInvoice(): Promise<string> {
  return expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs))).invoiceId;
}

const issue = (invoiceId: string, key: string) => () =>
  invoiceAction(t.api, merchantId, invoiceId, 'issue', {}, key);

const payByCard = (key: string) => () =>
  sandboxPayment(
    t.api,
    {
      merchantId,
      customerId: refs.customerId,
      amount: 5000,
      currency: 'USD',
      paymentMethod: testCard(cards.succeeds),
    },
    key,
  );

const productChange = { added: ['IdempotencyRecord', 'Product'], changed: [] };
const issueChange = { added: ['Event', 'IdempotencyRecord'], changed: ['Invoice'] };
const paymentChange = { added: ['Event', 'IdempotencyRecord', 'Payment'], changed: [] };

/** Enough faults on every send to outlast the SDK's three tries and the store's conflict retries. */
const always = Number.POSITIVE_INFINITY;

/** Creates a product while the transaction's first `times` tries fail with `fault`: each retried, one product made. */
async function expectOneProductThrough(fault: () => Error, times: number) {
  const { response, faulted, change } = await underFaults(
    { fault, times, commands: ['TransactWriteItemsCommand'] },
    createProduct(newKey()),
  );
  expect(faulted).toBe(times);
  expect(response.status).toBe(201);
  expect(change).toEqual(productChange);
}

describe('DynamoDB throttling', () => {
  it('creates one product when the first two tries of its transaction are throttled: the SDK retries them', async () => {
    await expectOneProductThrough(throttled.provisionedThroughput, 2);
  });

  it('issues an invoice once when its first two sends are throttled', async () => {
    const invoiceId = await draftInvoice();
    const { response, faulted, change } = await underFaults(
      { fault: throttled.throttling, times: 2 },
      issue(invoiceId, newKey()),
    );
    expect(faulted).toBe(2);
    expect(expectOk(response).status).toBe('issued');
    expect(change).toEqual(issueChange);
  });

  it('takes a card payment once when its first two sends are throttled', async () => {
    const { response, faulted, change } = await underFaults(
      { fault: throttled.provisionedThroughput, times: 2 },
      payByCard(newKey()),
    );
    expect(faulted).toBe(2);
    expect(expectOk(response).status).toBe('completed');
    expect(change).toEqual(paymentChange);
  });

  it('answers a clean 500 and writes nothing when throttling outlasts the retries; the same key then creates once', async () => {
    const key = newKey();
    const refused = await underFaults({ fault: throttled.throttling, times: always }, createProduct(key));
    expect(refused.faulted).toBeGreaterThanOrEqual(3);
    expectCleanInternalError(refused.response);
    expect(refused.change).toEqual(nothing);

    const before = await t.scanTable();
    const created = await createProduct(key)();
    const replayed = await createProduct(key)();
    expect(created.status).toBe(201);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(created.body);
    expect(changeOf(before, await t.scanTable())).toEqual(productChange);
  });

  it('answers a clean 500 for a payment whose every send is throttled, and the same key then pays once', async () => {
    const key = newKey();
    const refused = await underFaults(
      { fault: throttled.provisionedThroughput, times: always },
      payByCard(key),
    );
    expectCleanInternalError(refused.response);
    expect(refused.change).toEqual(nothing);

    const before = await t.scanTable();
    const paid = expectOk(await payByCard(key)());
    const replayed = expectOk(await payByCard(key)());
    expect(replayed).toEqual(paid);
    expect(changeOf(before, await t.scanTable())).toEqual(paymentChange);
  });
});

describe('DynamoDB transaction conflicts', () => {
  it('creates one product when its transaction meets three conflicts: the store retries them', async () => {
    await expectOneProductThrough(() => transactionConflict(), 3);
  });

  it('answers a clean 500 and leaves the invoice as it was when conflicts outlast the retries; the same key then issues once', async () => {
    const invoiceId = await draftInvoice();
    const key = newKey();
    const refused = await underFaults(
      { fault: () => transactionConflict(), times: always, commands: ['TransactWriteItemsCommand'] },
      issue(invoiceId, key),
    );
    expect(refused.faulted).toBeGreaterThan(1);
    expectCleanInternalError(refused.response);
    expect(refused.change).toEqual(nothing);

    const before = await t.scanTable();
    const issued = expectOk(await issue(invoiceId, key)());
    const replayed = await issue(invoiceId, key)();
    expect(issued.status).toBe('issued');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(issued);
    expect(changeOf(before, await t.scanTable())).toEqual(issueChange);
  });

  it('answers a clean 500 for a payment whose transactions always conflict, and the same key then pays once', async () => {
    const key = newKey();
    const refused = await underFaults(
      { fault: () => transactionConflict(), times: always, commands: ['TransactWriteItemsCommand'] },
      payByCard(key),
    );
    expectCleanInternalError(refused.response);
    expect(refused.change).toEqual(nothing);

    const before = await t.scanTable();
    const paid = expectOk(await payByCard(key)());
    expect(expectOk(await payByCard(key)())).toEqual(paid);
    expect(changeOf(before, await t.scanTable())).toEqual(paymentChange);
  });
});
