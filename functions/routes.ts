import type { z } from 'zod';
import {
  CreatePriceBody,
  CreateProductBody,
  ListPricesQuery,
  ListProductsQuery,
  MerchantQuery,
  Price,
  Product,
  ProductPathParams,
  SetProductStatusBody,
} from './api/catalog/schemas';
import {
  CreateCustomerBody,
  Customer,
  CustomerPathParams,
  ListCustomersQuery,
} from './api/customers/schemas';
import {
  CreateInvoiceBody,
  Invoice,
  InvoicePathParams,
  InvoiceQuery,
  ListInvoicesQuery,
  RecordPaymentBody,
} from './api/invoices/schemas';
import {
  PayInvoiceBody,
  PayInvoiceRequest,
  PayInvoiceResult,
  PayInvoiceView,
  PayPage,
} from './api/pay/schemas';
import {
  ListPaymentsQuery,
  ListRefundsQuery,
  Payment,
  PaymentPathParams,
  Refund,
  RefundPathParams,
} from './api/payments/schemas';
import {
  CreateSandboxPaymentBody,
  CreateSandboxPayoutBody,
  Payout,
  RefundSandboxPaymentBody,
} from './api/sandbox/schemas';
import { listResponse, MerchantScopeBody } from './api/shared-schemas';
import {
  CreateWebhookEndpointBody,
  DeliveryPathParams,
  EmptyBody,
  ListDeliveriesQuery,
  ListWebhookEndpointsQuery,
  MerchantPathParams,
  UpdateWebhookEndpointBody,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointPathParams,
  WebhookEndpointWithSecret,
} from './api/webhooks/schemas';
import type { Stage } from './config';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Where a route finds the merchantId it acts for (DESIGN §4, "merchantId on every route"); `none`
 * only for public routes, which act for whichever merchant the pay-link slug leads to.
 */
export type MerchantScope = 'path' | 'query' | 'body' | 'none';

export interface RouteDefinition {
  /** Unique, camelCase; names the Lambda function and the OpenAPI operation. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** API Gateway resource path, e.g. `/catalog/products/{productId}`. */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /** Module under `functions/` exporting `handler`. */
  readonly handler: string;
  readonly merchantScope: MerchantScope;
  readonly request: {
    readonly params?: z.ZodObject;
    readonly query?: z.ZodObject;
    readonly body?: z.ZodType;
  };
  readonly successStatus: 200 | 201;
  readonly response: z.ZodType;
  /** Seals or opens webhook signing secrets: gets the secrets key and kms:Encrypt/Decrypt on it. */
  readonly usesSecretsKey?: boolean;
  /** The stages that serve the route; absent: every stage. Elsewhere it does not exist (404). */
  readonly stages?: readonly Stage[];
  /** Function timeout; API Gateway waits at most 29 s for any integration. */
  readonly timeoutSeconds?: number;
  /**
   * `public`: no API key; the hosted pay page and the routes it calls (DESIGN §4 "Pay link"). They
   * are rate-limited per client address, by the web ACL in AWS and by the local gateway.
   */
  readonly access?: 'public';
  /** A POST that changes nothing (it carries a secret in its body rather than its URL): no Idempotency-Key. */
  readonly readOnly?: true;
  /**
   * Calls the payment processor before it writes: 503 where none is wired, and a retry during the
   * call gets 409 `idempotency_in_progress` (DESIGN §3).
   */
  readonly callsProcessor?: true;
  /** `none`: the handler never touches the table, so its function gets no table access or name. */
  readonly tableAccess?: 'none';
  /** The success response's media type; absent: JSON. */
  readonly contentType?: 'text/html';
}

/** The timeout of every route that does not set its own. */
export const defaultRouteTimeoutSeconds = 10;

/** Routes that change state require an Idempotency-Key (DESIGN §3) and may write the table. */
export function isMutating(route: Pick<RouteDefinition, 'method' | 'readOnly'>): boolean {
  return route.method !== 'GET' && route.readOnly !== true;
}

export function isPublic(route: Pick<RouteDefinition, 'access'>): boolean {
  return route.access === 'public';
}

/** The pay page is one static document: its function needs nothing from the table. */
export function usesTable(route: Pick<RouteDefinition, 'tableAccess'>): boolean {
  return route.tableAccess !== 'none';
}

function route<const R extends RouteDefinition>(definition: R): R {
  return definition;
}

/**
 * The route table: the one place a route is declared. The CDK stack, the local gateway and
 * `docs/openapi.json` all derive from it.
 */
export const routes = {
  createProduct: route({
    operationId: 'createProduct',
    method: 'POST',
    path: '/catalog/products',
    summary: 'Create a catalog product',
    tag: 'Catalog',
    handler: 'api/catalog/create-product',
    merchantScope: 'body',
    request: { body: CreateProductBody },
    successStatus: 201,
    response: Product,
  }),
  setProductStatus: route({
    operationId: 'setProductStatus',
    method: 'PUT',
    path: '/catalog/products/{productId}/status',
    summary: 'Set a catalog product active or inactive',
    tag: 'Catalog',
    handler: 'api/catalog/set-product-status',
    merchantScope: 'body',
    request: { params: ProductPathParams, body: SetProductStatusBody },
    successStatus: 200,
    response: Product,
  }),
  listProducts: route({
    operationId: 'listProducts',
    method: 'GET',
    path: '/catalog/products',
    summary: 'List catalog products, newest first',
    tag: 'Catalog',
    handler: 'api/catalog/list-products',
    merchantScope: 'query',
    request: { query: ListProductsQuery },
    successStatus: 200,
    response: listResponse(Product),
  }),
  getProduct: route({
    operationId: 'getProduct',
    method: 'GET',
    path: '/catalog/products/{productId}',
    summary: 'Get a catalog product',
    tag: 'Catalog',
    handler: 'api/catalog/get-product',
    merchantScope: 'query',
    request: { params: ProductPathParams, query: MerchantQuery },
    successStatus: 200,
    response: Product,
  }),
  createPrice: route({
    operationId: 'createPrice',
    method: 'POST',
    path: '/catalog/products/{productId}/prices',
    summary: 'Create a price of a catalog product',
    tag: 'Catalog',
    handler: 'api/catalog/create-price',
    merchantScope: 'body',
    request: { params: ProductPathParams, body: CreatePriceBody },
    successStatus: 201,
    response: Price,
  }),
  listPrices: route({
    operationId: 'listPrices',
    method: 'GET',
    path: '/catalog/products/{productId}/prices',
    summary: 'List the prices of a catalog product, newest first',
    tag: 'Catalog',
    handler: 'api/catalog/list-prices',
    merchantScope: 'query',
    request: { params: ProductPathParams, query: ListPricesQuery },
    successStatus: 200,
    response: listResponse(Price),
  }),
  createCustomer: route({
    operationId: 'createCustomer',
    method: 'POST',
    path: '/customers',
    summary: 'Create a customer',
    tag: 'Customers',
    handler: 'api/customers/create-customer',
    merchantScope: 'body',
    request: { body: CreateCustomerBody },
    successStatus: 201,
    response: Customer,
  }),
  listCustomers: route({
    operationId: 'listCustomers',
    method: 'GET',
    path: '/customers',
    summary: 'List customers, newest first',
    tag: 'Customers',
    handler: 'api/customers/list-customers',
    merchantScope: 'query',
    request: { query: ListCustomersQuery },
    successStatus: 200,
    response: listResponse(Customer),
  }),
  getCustomer: route({
    operationId: 'getCustomer',
    method: 'GET',
    path: '/customers/{customerId}',
    summary: 'Get a customer',
    tag: 'Customers',
    handler: 'api/customers/get-customer',
    merchantScope: 'query',
    request: { params: CustomerPathParams, query: MerchantQuery },
    successStatus: 200,
    response: Customer,
  }),
  createInvoice: route({
    operationId: 'createInvoice',
    method: 'POST',
    path: '/invoices',
    summary: 'Create a draft invoice with the next invoice number',
    tag: 'Invoices',
    handler: 'api/invoices/create-invoice',
    merchantScope: 'body',
    request: { body: CreateInvoiceBody },
    successStatus: 201,
    response: Invoice,
    // A burst of creates for one merchant queues on its number counter; see docs/decisions.md.
    timeoutSeconds: 29,
  }),
  listInvoices: route({
    operationId: 'listInvoices',
    method: 'GET',
    path: '/invoices',
    summary: 'List invoices, newest first, optionally by status and customer',
    tag: 'Invoices',
    handler: 'api/invoices/list-invoices',
    merchantScope: 'query',
    request: { query: ListInvoicesQuery },
    successStatus: 200,
    response: listResponse(Invoice),
  }),
  getInvoice: route({
    operationId: 'getInvoice',
    method: 'GET',
    path: '/invoices/{id}',
    summary: 'Get an invoice',
    tag: 'Invoices',
    handler: 'api/invoices/get-invoice',
    merchantScope: 'query',
    request: { params: InvoicePathParams, query: InvoiceQuery },
    successStatus: 200,
    response: Invoice,
  }),
  voidInvoice: route({
    operationId: 'voidInvoice',
    method: 'POST',
    path: '/invoices/{id}/void',
    summary: 'Void a draft or issued invoice',
    tag: 'Invoices',
    handler: 'api/invoices/void-invoice',
    merchantScope: 'body',
    request: { params: InvoicePathParams, body: MerchantScopeBody },
    successStatus: 200,
    response: Invoice,
  }),
  issueInvoice: route({
    operationId: 'issueInvoice',
    method: 'POST',
    path: '/invoices/{id}/issue',
    summary: 'Issue a draft invoice (emits invoices.InvoiceSent)',
    tag: 'Invoices',
    handler: 'api/invoices/issue-invoice',
    merchantScope: 'body',
    request: { params: InvoicePathParams, body: MerchantScopeBody },
    successStatus: 200,
    response: Invoice,
  }),
  sendInvoice: route({
    operationId: 'sendInvoice',
    method: 'POST',
    path: '/invoices/{id}/send',
    summary: 'Send an issued or partially paid invoice again (emits invoices.InvoiceSent, resend true)',
    tag: 'Invoices',
    handler: 'api/invoices/send-invoice',
    merchantScope: 'body',
    request: { params: InvoicePathParams, body: MerchantScopeBody },
    successStatus: 200,
    response: Invoice,
  }),
  recordInvoicePayment: route({
    operationId: 'recordInvoicePayment',
    method: 'POST',
    path: '/invoices/{id}/payments',
    summary: 'Record an out-of-band payment (emits invoices.InvoicePaid when paid in full)',
    tag: 'Invoices',
    handler: 'api/invoices/record-invoice-payment',
    merchantScope: 'body',
    request: { params: InvoicePathParams, body: RecordPaymentBody },
    successStatus: 200,
    response: Invoice,
  }),
  rotateInvoiceUrlSlug: route({
    operationId: 'rotateInvoiceUrlSlug',
    method: 'POST',
    path: '/invoices/{id}/rotate-url-slug',
    summary: 'Replace the pay-link slug; the old one stops working at once',
    tag: 'Invoices',
    handler: 'api/invoices/rotate-invoice-url-slug',
    merchantScope: 'body',
    request: { params: InvoicePathParams, body: MerchantScopeBody },
    successStatus: 200,
    response: Invoice,
  }),
  listWebhookEndpoints: route({
    operationId: 'listWebhookEndpoints',
    method: 'GET',
    path: '/merchants/{merchantId}/webhook-endpoints',
    summary: 'List webhook endpoints that are not deleted, newest first',
    tag: 'Webhooks',
    handler: 'api/webhooks/list-webhook-endpoints',
    merchantScope: 'path',
    request: { params: MerchantPathParams, query: ListWebhookEndpointsQuery },
    successStatus: 200,
    response: listResponse(WebhookEndpoint),
  }),
  createWebhookEndpoint: route({
    operationId: 'createWebhookEndpoint',
    method: 'POST',
    path: '/merchants/{merchantId}/webhook-endpoints',
    summary: 'Register a webhook endpoint (returns its signing secret, this once)',
    tag: 'Webhooks',
    handler: 'api/webhooks/create-webhook-endpoint',
    merchantScope: 'path',
    request: { params: MerchantPathParams, body: CreateWebhookEndpointBody },
    successStatus: 201,
    response: WebhookEndpointWithSecret,
    usesSecretsKey: true,
  }),
  updateWebhookEndpoint: route({
    operationId: 'updateWebhookEndpoint',
    method: 'PATCH',
    path: '/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}',
    summary: 'Change url, name, event types or status (active, disabled) of a webhook endpoint',
    tag: 'Webhooks',
    handler: 'api/webhooks/update-webhook-endpoint',
    merchantScope: 'path',
    request: { params: WebhookEndpointPathParams, body: UpdateWebhookEndpointBody },
    successStatus: 200,
    response: WebhookEndpoint,
  }),
  deleteWebhookEndpoint: route({
    operationId: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: '/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}',
    summary: 'Delete a webhook endpoint; its pending deliveries end without further attempts',
    tag: 'Webhooks',
    handler: 'api/webhooks/delete-webhook-endpoint',
    merchantScope: 'path',
    request: { params: WebhookEndpointPathParams },
    successStatus: 200,
    response: WebhookEndpoint,
  }),
  rotateWebhookSecret: route({
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/rotate-secret',
    summary: 'Replace the signing secret; the previous one is invalid at once',
    tag: 'Webhooks',
    handler: 'api/webhooks/rotate-webhook-secret',
    merchantScope: 'path',
    request: { params: WebhookEndpointPathParams, body: EmptyBody },
    successStatus: 200,
    response: WebhookEndpointWithSecret,
    usesSecretsKey: true,
  }),
  listWebhookDeliveries: route({
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/deliveries',
    summary: 'List the deliveries of an endpoint with their attempts, newest first',
    tag: 'Webhooks',
    handler: 'api/webhooks/list-webhook-deliveries',
    merchantScope: 'path',
    request: { params: WebhookEndpointPathParams, query: ListDeliveriesQuery },
    successStatus: 200,
    response: listResponse(WebhookDelivery),
  }),
  redeliverWebhook: route({
    operationId: 'redeliverWebhook',
    method: 'POST',
    path: '/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/deliveries/{webhookDeliveryId}/redeliver',
    summary: 'Deliver an event again as a new delivery linked to the original',
    tag: 'Webhooks',
    handler: 'api/webhooks/redeliver-webhook',
    merchantScope: 'path',
    request: { params: DeliveryPathParams, body: EmptyBody },
    successStatus: 201,
    response: WebhookDelivery,
  }),
  listPayments: route({
    operationId: 'listPayments',
    method: 'GET',
    path: '/payments',
    summary: 'List payments, newest first, by status, customer and creation time',
    tag: 'Payments',
    handler: 'api/payments/list-payments',
    merchantScope: 'query',
    request: { query: ListPaymentsQuery },
    successStatus: 200,
    response: listResponse(Payment),
  }),
  getPayment: route({
    operationId: 'getPayment',
    method: 'GET',
    path: '/payments/{paymentId}',
    summary: 'Get a payment',
    tag: 'Payments',
    handler: 'api/payments/get-payment',
    merchantScope: 'query',
    request: { params: PaymentPathParams, query: MerchantQuery },
    successStatus: 200,
    response: Payment,
  }),
  listRefunds: route({
    operationId: 'listRefunds',
    method: 'GET',
    path: '/payments/{paymentId}/refunds',
    summary: 'List the refunds of a payment, newest first',
    tag: 'Payments',
    handler: 'api/payments/list-refunds',
    merchantScope: 'query',
    request: { params: PaymentPathParams, query: ListRefundsQuery },
    successStatus: 200,
    response: listResponse(Refund),
  }),
  getRefund: route({
    operationId: 'getRefund',
    method: 'GET',
    path: '/payments/{paymentId}/refunds/{refundId}',
    summary: 'Get a refund of a payment (only under its own payment)',
    tag: 'Payments',
    handler: 'api/payments/get-refund',
    merchantScope: 'query',
    request: { params: RefundPathParams, query: MerchantQuery },
    successStatus: 200,
    response: Refund,
  }),
  createSandboxPayment: route({
    operationId: 'createSandboxPayment',
    method: 'POST',
    path: '/sandbox/payments',
    summary: 'Sandbox only: charge a test card or bank account (emits PaymentCreated or PaymentDeclined)',
    tag: 'Sandbox',
    handler: 'api/sandbox/create-payment',
    merchantScope: 'body',
    request: { body: CreateSandboxPaymentBody },
    successStatus: 201,
    response: Payment,
    stages: ['sandbox'],
    callsProcessor: true,
  }),
  refundSandboxPayment: route({
    operationId: 'refundSandboxPayment',
    method: 'POST',
    path: '/sandbox/payments/{paymentId}/refunds',
    summary: 'Sandbox only: refund part or all of what is left of a payment (emits PaymentRefunded)',
    tag: 'Sandbox',
    handler: 'api/sandbox/refund-payment',
    merchantScope: 'body',
    request: { params: PaymentPathParams, body: RefundSandboxPaymentBody },
    successStatus: 201,
    response: Refund,
    stages: ['sandbox'],
    callsProcessor: true,
  }),
  returnSandboxPayment: route({
    operationId: 'returnSandboxPayment',
    method: 'POST',
    path: '/sandbox/payments/{paymentId}/return',
    summary: 'Sandbox only: return a bank payment as its bank would (emits PaymentReturned)',
    tag: 'Sandbox',
    handler: 'api/sandbox/return-payment',
    merchantScope: 'body',
    request: { params: PaymentPathParams, body: MerchantScopeBody },
    successStatus: 200,
    response: Payment,
    stages: ['sandbox'],
  }),
  createSandboxPayout: route({
    operationId: 'createSandboxPayout',
    method: 'POST',
    path: '/sandbox/payouts',
    summary: 'Sandbox only: pay out an amount to the merchant (emits payouts.PayoutCreated)',
    tag: 'Sandbox',
    handler: 'api/sandbox/create-payout',
    merchantScope: 'body',
    request: { body: CreateSandboxPayoutBody },
    successStatus: 201,
    response: Payout,
    stages: ['sandbox'],
  }),
  servePayPage: route({
    operationId: 'servePayPage',
    method: 'GET',
    path: '/pay',
    summary: 'The hosted pay page; open it as /pay#<invoiceUrlSlug>',
    tag: 'Pay page',
    handler: 'pay/serve-pay-page',
    merchantScope: 'none',
    request: {},
    successStatus: 200,
    response: PayPage,
    access: 'public',
    contentType: 'text/html',
    tableAccess: 'none',
  }),
  getPayInvoice: route({
    operationId: 'getPayInvoice',
    method: 'POST',
    path: '/pay/invoice',
    summary: 'Public: the invoice a pay-link slug leads to, as its payer sees it',
    tag: 'Pay page',
    handler: 'api/pay/get-pay-invoice',
    merchantScope: 'none',
    request: { body: PayInvoiceBody },
    successStatus: 200,
    response: PayInvoiceView,
    access: 'public',
    readOnly: true,
  }),
  payInvoice: route({
    operationId: 'payInvoice',
    method: 'POST',
    path: '/pay/payments',
    summary: 'Public: pay the amount remaining of the invoice a pay-link slug leads to',
    tag: 'Pay page',
    handler: 'api/pay/pay-invoice',
    merchantScope: 'none',
    request: { body: PayInvoiceRequest },
    successStatus: 201,
    response: PayInvoiceResult,
    access: 'public',
    callsProcessor: true,
  }),
} as const satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;

export const routeList: readonly RouteDefinition[] = Object.values(routes);

/** The routes a stage serves: the deployed API and the local gateway register only these. */
export function routesOfStage(routes: readonly RouteDefinition[], stage: Stage): RouteDefinition[] {
  return routes.filter((route) => route.stages === undefined || route.stages.includes(stage));
}
