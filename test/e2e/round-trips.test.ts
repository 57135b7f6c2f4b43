import { describe, expect, it } from 'vitest';
import { type RouteName, routeList, routes, routesOfStage } from '../../functions/routes';
import { e2eTest } from '../support/e2e-test';
import {
  measureRouteRoundTrips,
  type RouteRoundTrips,
  roundTripRuntimeSettings,
  withinBudget,
} from '../support/route-round-trips';

/**
 * The routes production serves and the sandbox does not; each file that drives them as production
 * pins their round trips (Stripe's webhook: test/e2e/stripe-events.test.ts).
 */
type ProductionOnlyRoute = 'receiveStripeEvent' | 'createCheckoutSession';
type SandboxRouteName = Exclude<RouteName, ProductionOnlyRoute>;

/**
 * What each route sends to DynamoDB on its happy path, in order, with a warm authorizer cache and a
 * cached cursor signing key. A change that adds (or saves) a round trip changes this table.
 */
const expectedCommands: Record<SandboxRouteName, readonly string[]> = {
  createProduct: ['TransactWriteItemsCommand'],
  setProductStatus: ['GetItemCommand', 'TransactWriteItemsCommand'],
  listProducts: ['QueryCommand'],
  getProduct: ['GetItemCommand'],
  createPrice: ['TransactWriteItemsCommand'],
  listPrices: ['QueryCommand'],
  createCustomer: ['TransactWriteItemsCommand'],
  listCustomers: ['QueryCommand'],
  getCustomer: ['GetItemCommand'],
  createInvoice: ['BatchGetItemCommand', 'TransactWriteItemsCommand'],
  listInvoices: ['QueryCommand'],
  getInvoice: ['GetItemCommand'],
  voidInvoice: ['GetItemCommand', 'TransactWriteItemsCommand'],
  issueInvoice: ['GetItemCommand', 'TransactWriteItemsCommand'],
  sendInvoice: ['GetItemCommand', 'TransactWriteItemsCommand'],
  recordInvoicePayment: ['GetItemCommand', 'TransactWriteItemsCommand'],
  rotateInvoiceUrlSlug: ['GetItemCommand', 'TransactWriteItemsCommand'],
  clearPayLinkDeclines: ['GetItemCommand', 'TransactWriteItemsCommand'],
  listInvoiceEmails: ['QueryCommand', 'GetItemCommand'],
  getInvoiceEmail: ['GetItemCommand'],
  listWebhookEndpoints: ['QueryCommand'],
  createWebhookEndpoint: ['TransactWriteItemsCommand'],
  updateWebhookEndpoint: ['GetItemCommand', 'TransactWriteItemsCommand'],
  deleteWebhookEndpoint: ['GetItemCommand', 'TransactWriteItemsCommand'],
  rotateWebhookSecret: ['GetItemCommand', 'TransactWriteItemsCommand'],
  listWebhookDeliveries: ['QueryCommand'],
  redeliverWebhook: ['BatchGetItemCommand', 'TransactWriteItemsCommand'],
  sendTestWebhook: ['BatchGetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand'],
  recoverWebhookDeliveries: ['BatchGetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand'],
  getWebhookRecovery: ['BatchGetItemCommand'],
  listPayments: ['QueryCommand'],
  getPayment: ['GetItemCommand'],
  listRefunds: ['QueryCommand', 'GetItemCommand'],
  getRefund: ['BatchGetItemCommand'],
  listEvents: ['QueryCommand'],
  getEvent: ['GetItemCommand'],
  listEventDeliveries: ['QueryCommand'],
  createSandboxPayment: ['BatchGetItemCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand'],
  refundSandboxPayment: ['GetItemCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand'],
  createRefund: ['GetItemCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand'],
  returnSandboxPayment: ['GetItemCommand', 'TransactWriteItemsCommand'],
  createSandboxPayout: ['TransactWriteItemsCommand'],
  servePayPage: [],
  servePortalPage: ['GetItemCommand'],
  servePortalAsset: [],
  getPayInvoice: ['QueryCommand'],
  payInvoice: ['QueryCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand'],
  createPortalSession: ['TransactWriteItemsCommand'],
  revokePortalSession: ['GetItemCommand', 'TransactWriteItemsCommand'],
  exchangePortalLink: ['UpdateItemCommand', 'GetItemCommand'],
  linkProcessorAccount: ['TransactWriteItemsCommand', 'GetItemCommand', 'TransactWriteItemsCommand'],
  getProcessorAccount: ['GetItemCommand'],
};

/**
 * Routes that miss the budget today, each with why. Every command counts as a round trip, including
 * two reads sent side by side (one wait, but two requests).
 */
const overBudget: Partial<Record<RouteName, string>> = {
  payInvoice:
    'reserves before and completes after the processor call: the reservation makes a crash after the charge recoverable',
  createSandboxPayment:
    'reserves before and completes after the processor call: the reservation makes a crash after the charge recoverable',
  refundSandboxPayment:
    'reserves before and completes after the processor call: the reservation makes a crash after the refund recoverable',
  createRefund:
    'reserves before and completes after the processor call: the reservation makes a crash after the refund recoverable',
  linkProcessorAccount:
    'reserves before and completes after the processor call, reading the account under the lock: two requests never open two accounts',
  sendTestWebhook:
    "reads its quota by the endpoint's url, which only the endpoint's read names: the quota counts per destination",
  recoverWebhookDeliveries:
    "reads its quota by the endpoint's url, which only the endpoint's read names: the quota counts per destination",
  listRefunds:
    'reads the payment beside the page (one wait): each refund shows its payment’s status now, which no refund item keeps',
  listInvoiceEmails:
    "reads the invoice beside the page (one wait): an invoice's emails are no proof the invoice is the caller's",
};

const test = e2eTest(roundTripRuntimeSettings);
let measured: Map<string, string[]>;
let nextPages: Map<string, string[]>;
let coldCursor: RouteRoundTrips['coldCursor'];
let coldAuthorizer: RouteRoundTrips['coldAuthorizer'];

test.beforeAll(async ({ t, receiver }) => {
  ({ measured, nextPages, coldCursor, coldAuthorizer } = await measureRouteRoundTrips(t, receiver));
}, 120_000);

const sandboxRoutes = routesOfStage(routeList, 'sandbox');

describe('DynamoDB round trips per route', () => {
  it('measures every route the sandbox stage serves, and the table names exactly those', () => {
    const operationIds = sandboxRoutes.map((route) => route.operationId).sort();
    expect([...measured.keys()].sort()).toEqual(operationIds);
    expect(Object.keys(expectedCommands).sort()).toEqual(operationIds);
  });

  it.each(sandboxRoutes.map((route) => [route.operationId, route] as const))(
    '%s sends exactly the commands of the table',
    (operationId) => {
      expect(measured.get(operationId)).toEqual(expectedCommands[operationId as SandboxRouteName]);
    },
  );

  const budgeted = sandboxRoutes.filter((route) => !(route.operationId in overBudget));
  it.each(budgeted.map((route) => [route.operationId, route] as const))(
    '%s stays within one read and one write (one round trip in all when it only reads)',
    (operationId, route) => {
      expect(withinBudget(route, measured.get(operationId) ?? [])).toBe(true);
    },
  );

  it.each(Object.keys(overBudget))('%s is over budget, as its reason says', (operationId) => {
    const route = routes[operationId as RouteName];
    expect(withinBudget(route, measured.get(operationId) ?? [])).toBe(false);
  });
});

/**
 * What a list route's second page sends where it is not what its first page sends, and why
 * (docs/decisions/keys-for-every-filter.md). Every other list's pages cost the same.
 */
const nextPageCommands: Partial<Record<RouteName, readonly string[]>> = {
  // A cursor cannot reach the endpoint's marker, so the endpoint is read beside the Query (one
  // wait): a deleted endpoint is a 404 on every page.
  listWebhookDeliveries: ['GetItemCommand', 'QueryCommand'],
};

describe('the pages after the first', () => {
  const lists = sandboxRoutes.filter((route) => route.operationId.startsWith('list'));

  it('are measured for every list route', () => {
    expect([...nextPages.keys()].sort()).toEqual(lists.map((route) => route.operationId).sort());
  });

  it.each(lists.map((route) => [route.operationId] as const))(
    '%s: page 2 sends what page 1 sends, or what the table names',
    (operationId) => {
      const expected =
        nextPageCommands[operationId as RouteName] ?? expectedCommands[operationId as SandboxRouteName];
      expect([...(nextPages.get(operationId) ?? [])].sort()).toEqual([...expected].sort());
    },
  );
});

describe('the cursor signing key', () => {
  it('is read and created by the first list page that signs a cursor on a new table', () => {
    expect(coldCursor.newTable).toEqual(['QueryCommand', 'GetItemCommand', 'PutItemCommand']);
  });

  it('is read once more by a new container, then never again', () => {
    expect(coldCursor.newContainer).toEqual(['QueryCommand', 'GetItemCommand']);
    expect(coldCursor.warm).toEqual(['QueryCommand']);
  });

  it('costs a page fetched with a cursor nothing more once cached', () => {
    expect(coldCursor.nextPage).toEqual(['QueryCommand']);
  });
});

describe('the authorizer', () => {
  it('sends its key read outside the route, so a cold cache adds nothing to a route’s commands', () => {
    expect(coldAuthorizer).toEqual(['QueryCommand']);
  });
});
