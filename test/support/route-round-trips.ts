import { type RouteDefinition, writesTable } from '../../functions/route-definition';
import type { RouteName } from '../../functions/routes';
import { resetCursorSigningKey } from '../../functions/store/merchants';
import type { HttpsReceiver } from './https-receiver';
import { createInvoice, expectOk, invoiceAction, invoiceBody } from './invoice-requests';
import { invoiceFixtures } from './invoices';
import { type ApiResult, apiClient, dynamoDbCommandsDuring, newKey, type TestRuntime } from './local-runtime';
import { mailSettled } from './mail-settled';
import { bankAccounts, cards, sandboxPayment, testBankAccount, testCard } from './payment-requests';

/**
 * The runtime settings round trips are measured under: loopback receivers, and an hour of
 * authorizer cache, since a run may last past the default 60 s on a loaded machine.
 */
export const roundTripRuntimeSettings = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
  AUTH_CACHE_SECONDS: 3600,
} as const;

const readCommands = new Set([
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'TransactGetItemsCommand',
]);
const writeCommands = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);

/** Reads and writes of a command list; a command of neither kind fails, so none goes uncounted. */
export function roundTrips(commands: readonly string[]): { reads: number; writes: number } {
  for (const command of commands) {
    if (!readCommands.has(command) && !writeCommands.has(command)) {
      throw new Error(`${command} is neither a known read nor a known write`);
    }
  }
  return {
    reads: commands.filter((command) => readCommands.has(command)).length,
    writes: commands.filter((command) => writeCommands.has(command)).length,
  };
}

/**
 * The budget: a route that changes state costs at most one read and one write round trip; one that
 * only reads (a GET, a list page, the pay page's read-only POST) costs at most one in all.
 */
export function withinBudget(route: RouteDefinition, commands: readonly string[]): boolean {
  const { reads, writes } = roundTrips(commands);
  return writesTable(route) ? reads <= 1 && writes <= 1 : reads + writes <= 1;
}

/** The DynamoDB commands of one happy-path call of every route, and of the cold paths around them. */
export interface RouteRoundTrips {
  /** Per route, in the order sent, with a warm authorizer cache and a cached cursor signing key. */
  readonly measured: Map<RouteName, string[]>;
  /** Per list route, its second page: what the first page's cursor asks for. */
  readonly nextPages: Map<RouteName, string[]>;
  /** A list page that signs a cursor on a fresh table, in a fresh container, warm; then the next page. */
  readonly coldCursor: { newTable: string[]; newContainer: string[]; warm: string[]; nextPage: string[] };
  /** A request under a key the authorizer has not seen yet. */
  readonly coldAuthorizer: string[];
}

/**
 * Calls every route the sandbox stage serves once, on its happy path, through the runtime's
 * gateway, and records what each sent to DynamoDB. `receiver` gets the one webhook delivery the
 * delivery routes read and redeliver, and the test delivery the test route sends.
 */
export async function measureRouteRoundTrips(
  t: TestRuntime,
  receiver: HttpsReceiver,
): Promise<RouteRoundTrips> {
  const measured = new Map<RouteName, string[]>();
  const nextPages = new Map<RouteName, string[]>();
  const coldCursor: RouteRoundTrips['coldCursor'] = {
    newTable: [],
    newContainer: [],
    warm: [],
    nextPage: [],
  };

  /** Records the commands of one successful call of a route. */
  async function measure(operationId: RouteName, call: () => Promise<ApiResult>): Promise<any> {
    let body: any;
    const commands = await dynamoDbCommandsDuring(async () => {
      body = expectOk(await call());
    });
    measured.set(operationId, commands);
    return body;
  }

  /** Records a list route's first page of one, then the page its cursor leads to. */
  async function measureList(
    operationId: RouteName,
    page: (cursor: Record<string, string>) => Promise<ApiResult>,
  ): Promise<any> {
    const first = await measure(operationId, () => page({}));
    const cursor = first.page?.nextCursor;
    if (typeof cursor !== 'string') throw new Error(`${operationId}: the first page has no next page`);
    nextPages.set(
      operationId,
      await dynamoDbCommandsDuring(async () => {
        expectOk(await page({ cursor }));
      }),
    );
    return first;
  }

  const api = t.api;
  const merchantId = t.runtime.merchantId;
  const publicApi = apiClient(t.runtime.baseUrl, 'unused');
  const noKey = { authorization: null } as const;
  const post = (path: string, body: Record<string, unknown> = { merchantId }) =>
    api('POST', path, { body, idempotencyKey: newKey() });
  const get = (path: string, query: Record<string, string | number> = {}) =>
    api('GET', path, { query: { merchantId, ...query } });

  // Warms the authorizer cache for this key; every route below is measured behind it.
  expectOk(await get('/customers'));
  const other = await t.anotherMerchant();
  const coldAuthorizer = await dynamoDbCommandsDuring(async () => {
    expectOk(await other.api('GET', '/customers', { query: { merchantId: other.merchantId } }));
  });

  // Two customers, so a page of one has a next page and signs a cursor.
  const refs = await invoiceFixtures(api, merchantId);
  expectOk(await post('/customers', { merchantId, name: 'Bo Buyer', email: 'bo@example.com' }));
  resetCursorSigningKey();
  coldCursor.newTable = await dynamoDbCommandsDuring(async () => {
    expectOk(await get('/customers', { limit: 1 }));
  });
  resetCursorSigningKey();
  coldCursor.newContainer = await dynamoDbCommandsDuring(async () => {
    expectOk(await get('/customers', { limit: 1 }));
  });
  let cursor = '';
  coldCursor.warm = await dynamoDbCommandsDuring(async () => {
    cursor = expectOk(await get('/customers', { limit: 1 })).page.nextCursor;
  });
  coldCursor.nextPage = await dynamoDbCommandsDuring(async () => {
    expectOk(await get('/customers', { limit: 1, cursor }));
  });

  // Catalog and customers.
  const product = await measure('createProduct', () =>
    post('/catalog/products', { merchantId, name: 'Oolong' }),
  );
  await measure('setProductStatus', () =>
    api('PUT', `/catalog/products/${product.productId}/status`, {
      body: { merchantId, status: 'inactive' },
      idempotencyKey: newKey(),
    }),
  );
  await measure('getProduct', () => get(`/catalog/products/${product.productId}`));
  await measureList('listProducts', (cursor) => get('/catalog/products', { limit: 1, ...cursor }));
  await measure('createPrice', () =>
    post(`/catalog/products/${refs.productId}/prices`, { merchantId, unitAmount: 900, currency: 'USD' }),
  );
  await measureList('listPrices', (cursor) =>
    get(`/catalog/products/${refs.productId}/prices`, { limit: 1, ...cursor }),
  );
  const customer = await measure('createCustomer', () =>
    post('/customers', { merchantId, name: 'Cy Buyer', email: 'cy@example.com' }),
  );
  await measure('getCustomer', () => get(`/customers/${customer.customerId}`));
  await measureList('listCustomers', (cursor) => get('/customers', { limit: 1, ...cursor }));

  // Invoices: one through issue, send, a part payment, a new slug and a clear of its pay link's
  // declines; another voided.
  const invoice = await measure('createInvoice', () => createInvoice(api, invoiceBody(merchantId, refs)));
  await measure('getInvoice', () => get(`/invoices/${invoice.invoiceId}`));
  await measure('issueInvoice', () => invoiceAction(api, merchantId, invoice.invoiceId, 'issue'));
  await measure('sendInvoice', () => invoiceAction(api, merchantId, invoice.invoiceId, 'send'));
  await measure('recordInvoicePayment', () =>
    invoiceAction(api, merchantId, invoice.invoiceId, 'payments', { amount: 1000 }),
  );
  const rotated = await measure('rotateInvoiceUrlSlug', () =>
    invoiceAction(api, merchantId, invoice.invoiceId, 'rotate-url-slug'),
  );
  await measure('clearPayLinkDeclines', () =>
    invoiceAction(api, merchantId, invoice.invoiceId, 'clear-pay-link-declines'),
  );
  // Its two emails to the customer (on issue and on send), once the mailer is done with them.
  await mailSettled(t);
  const emails = await measureList('listInvoiceEmails', (cursor) =>
    get(`/invoices/${invoice.invoiceId}/emails`, { limit: 1, ...cursor }),
  );
  await measure('getInvoiceEmail', () =>
    get(`/invoices/${invoice.invoiceId}/emails/${emails.items[0].emailId}`),
  );
  const draft = expectOk(await createInvoice(api, invoiceBody(merchantId, refs)));
  await measure('voidInvoice', () => invoiceAction(api, merchantId, draft.invoiceId, 'void'));
  await measureList('listInvoices', (cursor) => get('/invoices', { limit: 1, ...cursor }));

  // The pay page, on the issued invoice's current slug; the payment takes what is left.
  // The page is HTML, which the JSON client can't read.
  await measure('servePayPage', async () => {
    const response = await fetch(new URL('/pay', t.runtime.baseUrl));
    return { status: response.status, headers: response.headers, body: await response.text() };
  });
  // The portal's page reads its session (none here: a well-formed id no session has) for its framing;
  // its assets come from the bundle.
  const portalPage = await measure('servePortalPage', async () => {
    const response = await fetch(new URL(`/portal/psn_${'0'.repeat(26)}`, t.runtime.baseUrl));
    return { status: response.status, headers: response.headers, body: await response.text() };
  });
  const script = /assets\/(portal-[^"]+\.js)/.exec(String(portalPage))?.[1] ?? 'missing';
  await measure('servePortalAsset', async () => {
    const response = await fetch(new URL(`/portal/assets/${script}`, t.runtime.baseUrl));
    return { status: response.status, headers: response.headers, body: await response.text() };
  });
  const view = await measure('getPayInvoice', () =>
    publicApi('POST', '/pay/invoice', { ...noKey, body: { slug: rotated.invoiceUrlSlug } }),
  );
  await measure('payInvoice', () =>
    publicApi('POST', '/pay/payments', {
      ...noKey,
      body: {
        slug: rotated.invoiceUrlSlug,
        amount: view.amountRemaining.amount,
        paymentMethod: testCard(cards.succeeds),
      },
      idempotencyKey: newKey(),
    }),
  );

  // Sandbox payments, refunds, returns and payouts, and the reads of payments and refunds.
  const paymentBody = (paymentMethod: unknown) => ({
    merchantId,
    customerId: refs.customerId,
    amount: 5000,
    currency: 'USD',
    paymentMethod,
  });
  const payment = await measure('createSandboxPayment', () =>
    sandboxPayment(api, paymentBody(testCard(cards.succeeds))),
  );
  const refund = await measure('refundSandboxPayment', () =>
    post(`/sandbox/payments/${payment.paymentId}/refunds`, { merchantId, amount: 1000 }),
  );
  const returnable = expectOk(
    await sandboxPayment(api, paymentBody(testBankAccount(bankAccounts.returnedLater))),
  );
  await measure('returnSandboxPayment', () => post(`/sandbox/payments/${returnable.paymentId}/return`));
  await measure('createSandboxPayout', () =>
    post('/sandbox/payouts', { merchantId, amount: 10_000, currency: 'USD' }),
  );
  await measure('getPayment', () => get(`/payments/${payment.paymentId}`));
  await measureList('listPayments', (cursor) => get('/payments', { limit: 1, ...cursor }));
  await measure('getRefund', () => get(`/payments/${payment.paymentId}/refunds/${refund.id}`));
  // A second refund, through the merchants' route, so the list of one has a next page.
  await measure('createRefund', () =>
    post(`/payments/${payment.paymentId}/refunds`, { merchantId, amount: 500 }),
  );
  await measureList('listRefunds', (cursor) =>
    get(`/payments/${payment.paymentId}/refunds`, { limit: 1, ...cursor }),
  );

  // Webhook endpoints: one subscribed to invoices.InvoiceSent gets the next issue's delivery.
  const endpoints = `/merchants/${merchantId}/webhook-endpoints`;
  const endpoint = await measure('createWebhookEndpoint', () =>
    api('POST', endpoints, {
      body: { url: receiver.url(), eventTypes: ['invoices.InvoiceSent'] },
      idempotencyKey: newKey(),
    }),
  );
  const endpointPath = `${endpoints}/${endpoint.webhookEndpointId}`;
  // A second endpoint, which no event reaches, so the list of one has a next page.
  expectOk(
    await api('POST', endpoints, {
      body: { url: receiver.url(), eventTypes: ['payouts.PayoutCreated'] },
      idempotencyKey: newKey(),
    }),
  );
  await measureList('listWebhookEndpoints', (cursor) =>
    api('GET', endpoints, { query: { limit: 1, ...cursor } }),
  );
  const next = expectOk(await createInvoice(api, invoiceBody(merchantId, refs)));
  expectOk(await invoiceAction(api, merchantId, next.invoiceId, 'issue'));
  await receiver.waitFor(1, 20_000);
  // The delivery is settled before it is read or redelivered, so nothing of the pipeline is in flight.
  const delivered = await settledDeliveries(t, endpointPath, 1);
  await measure('redeliverWebhook', () =>
    api('POST', `${endpointPath}/deliveries/${delivered[0].webhookDeliveryId}/redeliver`, {
      idempotencyKey: newKey(),
    }),
  );
  await settledDeliveries(t, endpointPath, 2);
  await measureList('listWebhookDeliveries', (cursor) =>
    api('GET', `${endpointPath}/deliveries`, { query: { limit: 1, ...cursor } }),
  );
  await measure('sendTestWebhook', () =>
    api('POST', `${endpointPath}/test`, {
      body: { eventType: 'payments.PaymentCreated' },
      idempotencyKey: newKey(),
    }),
  );
  await settledDeliveries(t, endpointPath, 3);
  const recovery = await measure('recoverWebhookDeliveries', () =>
    api('POST', `${endpointPath}/recover`, {
      body: { since: new Date(Date.now() - 60 * 60 * 1000).toISOString() },
      idempotencyKey: newKey(),
    }),
  );
  await measure('getWebhookRecovery', () => api('GET', `${endpointPath}/recoveries/${recovery.recoveryId}`));
  // The recovery's batches run in the background: it ends before anything else changes the endpoint.
  await endedRecovery(t, `${endpointPath}/recoveries/${recovery.recoveryId}`);

  // The event log: the first invoice's two sends, then the next invoice's event and its two
  // deliveries (the first and the redelivery).
  await measureList('listEvents', (cursor) =>
    get('/events', { limit: 1, type: 'invoices.InvoiceSent', objectId: invoice.invoiceId, ...cursor }),
  );
  const events = expectOk(
    await get('/events', { limit: 1, type: 'invoices.InvoiceSent', objectId: next.invoiceId }),
  );
  const eventId = events.items[0].eventId;
  await measure('getEvent', () => get(`/events/${eventId}`));
  await measureList('listEventDeliveries', (cursor) =>
    get(`/events/${eventId}/deliveries`, { limit: 1, ...cursor }),
  );
  await measure('updateWebhookEndpoint', () =>
    api('PATCH', endpointPath, { body: { name: 'Renamed' }, idempotencyKey: newKey() }),
  );
  await measure('rotateWebhookSecret', () =>
    api('POST', `${endpointPath}/rotate-secret`, { idempotencyKey: newKey() }),
  );
  await measure('deleteWebhookEndpoint', () => api('DELETE', endpointPath, { idempotencyKey: newKey() }));

  // Portal sessions: minted by the key, opened once on the public route, revoked.
  const portalSessions = `/merchants/${merchantId}/portal-sessions`;
  const session = await measure('createPortalSession', () =>
    api('POST', portalSessions, { body: { scope: 'read' }, idempotencyKey: newKey() }),
  );
  await measure('exchangePortalLink', () =>
    publicApi('POST', '/portal/exchange', { ...noKey, body: { token: new URL(session.url).hash.slice(1) } }),
  );
  await measure('revokePortalSession', () =>
    api('DELETE', `${portalSessions}/${session.portalSessionId}`, { idempotencyKey: newKey() }),
  );
  // The processor account: simulated in the sandbox, opened once, then read.
  const processorAccount = `/merchants/${merchantId}/processor-account`;
  await measure('linkProcessorAccount', () =>
    api('POST', processorAccount, {
      body: { returnUrl: 'https://shop.example.com/back', refreshUrl: 'https://shop.example.com/again' },
      idempotencyKey: newKey(),
    }),
  );
  await measure('getProcessorAccount', () => api('GET', processorAccount));
  return { measured, nextPages, coldCursor, coldAuthorizer };
}

/** Polls an endpoint's deliveries until `count` exist and every one has succeeded (30 s at most). */
async function settledDeliveries(t: TestRuntime, endpointPath: string, count: number): Promise<any[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const page = expectOk(await t.api('GET', `${endpointPath}/deliveries`, { query: { limit: 100 } }));
    const items: any[] = page.items;
    if (items.length >= count && items.every((item) => item.status === 'succeeded')) return items;
    if (Date.now() > deadline) throw new Error(`${items.length} of ${count} deliveries, not all succeeded`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls a recovery until it is no longer running (30 s at most). */
async function endedRecovery(t: TestRuntime, recoveryPath: string): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const recovery = expectOk(await t.api('GET', recoveryPath));
    if (recovery.status !== 'running') return recovery;
    if (Date.now() > deadline) throw new Error(`recovery still running: ${JSON.stringify(recovery)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
