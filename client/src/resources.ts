import type { OperationId } from './generated/routes.js';
import type {
  CustomerId,
  EventId,
  InvoiceEmailId,
  InvoiceId,
  PaymentId,
  PortalSessionId,
  ProductId,
  RefundId,
  WebhookDeliveryId,
  WebhookEndpointId,
  WebhookRecoveryId,
} from './ids.js';
import { List, type Page } from './pages.js';
import type { CallArguments, Input, Query, RequestOptions, Success, Transport } from './transport.js';

type ItemOf<O extends OperationId> = Success<O> extends Page<infer Item> ? Item : never;

/** A list operation as a List: each page is one call, the cursor of the page before in its query. */
function listOf<O extends OperationId>(
  transport: Transport,
  operationId: O,
  args: CallArguments & { query?: { cursor?: string } },
  options?: RequestOptions,
): List<ItemOf<O>> {
  const fetchPage = async (cursor: string | undefined) =>
    (await transport.call(operationId, { ...args, query: { ...args.query, cursor } }, options)) as Page<
      ItemOf<O>
    >;
  return new List(fetchPage, args.query?.cursor);
}

/** The catalog's products (`/catalog/products`). */
export class Products {
  constructor(private readonly transport: Transport) {}

  create(body: Input<'createProduct'>, options?: RequestOptions) {
    return this.transport.call('createProduct', { body }, options);
  }
  retrieve(productId: ProductId, options?: RequestOptions) {
    return this.transport.call('getProduct', { path: { productId } }, options);
  }
  list(query: Query<'listProducts'> = {}, options?: RequestOptions) {
    return listOf(this.transport, 'listProducts', { query }, options);
  }
  /** Sets a product `active` or `inactive`; an inactive product's prices take no new invoices. */
  setStatus(productId: ProductId, body: Input<'setProductStatus'>, options?: RequestOptions) {
    return this.transport.call('setProductStatus', { path: { productId }, body }, options);
  }
}

/** A product's prices (`/catalog/products/{productId}/prices`). */
export class Prices {
  constructor(private readonly transport: Transport) {}

  create(productId: ProductId, body: Input<'createPrice'>, options?: RequestOptions) {
    return this.transport.call('createPrice', { path: { productId }, body }, options);
  }
  list(productId: ProductId, query: Query<'listPrices'> = {}, options?: RequestOptions) {
    return listOf(this.transport, 'listPrices', { path: { productId }, query }, options);
  }
}

export class Customers {
  constructor(private readonly transport: Transport) {}

  create(body: Input<'createCustomer'>, options?: RequestOptions) {
    return this.transport.call('createCustomer', { body }, options);
  }
  retrieve(customerId: CustomerId, options?: RequestOptions) {
    return this.transport.call('getCustomer', { path: { customerId } }, options);
  }
  list(query: Query<'listCustomers'> = {}, options?: RequestOptions) {
    return listOf(this.transport, 'listCustomers', { query }, options);
  }
}

/** The emails sent for an invoice (`/invoices/{id}/emails`). */
export class InvoiceEmails {
  constructor(private readonly transport: Transport) {}

  list(invoiceId: InvoiceId, query: Query<'listInvoiceEmails'> = {}, options?: RequestOptions) {
    return listOf(this.transport, 'listInvoiceEmails', { path: { id: invoiceId }, query }, options);
  }
  retrieve(invoiceId: InvoiceId, emailId: InvoiceEmailId, options?: RequestOptions) {
    return this.transport.call('getInvoiceEmail', { path: { id: invoiceId, emailId } }, options);
  }
}

export class Invoices {
  readonly emails: InvoiceEmails;

  constructor(private readonly transport: Transport) {
    this.emails = new InvoiceEmails(transport);
  }

  create(body: Input<'createInvoice'>, options?: RequestOptions) {
    return this.transport.call('createInvoice', { body }, options);
  }
  retrieve(invoiceId: InvoiceId, options?: RequestOptions) {
    return this.transport.call('getInvoice', { path: { id: invoiceId } }, options);
  }
  list(query: Query<'listInvoices'> = {}, options?: RequestOptions) {
    return listOf(this.transport, 'listInvoices', { query }, options);
  }
  /** Issues a draft: it gets its pay link, and its customer the email (invoices.InvoiceSent). */
  issue(invoiceId: InvoiceId, options?: RequestOptions) {
    return this.transport.call('issueInvoice', { path: { id: invoiceId } }, options);
  }
  /** Sends an issued invoice to its customer again. */
  send(invoiceId: InvoiceId, options?: RequestOptions) {
    return this.transport.call('sendInvoice', { path: { id: invoiceId } }, options);
  }
  void(invoiceId: InvoiceId, options?: RequestOptions) {
    return this.transport.call('voidInvoice', { path: { id: invoiceId } }, options);
  }
  /** Records a payment made outside the pay link (a cheque, a transfer). */
  recordPayment(invoiceId: InvoiceId, body: Input<'recordInvoicePayment'>, options?: RequestOptions) {
    return this.transport.call('recordInvoicePayment', { path: { id: invoiceId }, body }, options);
  }
  /** Gives the invoice a new pay-link slug; the old link stops working. */
  rotateUrlSlug(invoiceId: InvoiceId, options?: RequestOptions) {
    return this.transport.call('rotateInvoiceUrlSlug', { path: { id: invoiceId } }, options);
  }
  /** Lets the pay link take payments again after too many declines. */
  clearPayLinkDeclines(invoiceId: InvoiceId, options?: RequestOptions) {
    return this.transport.call('clearPayLinkDeclines', { path: { id: invoiceId } }, options);
  }
}

export class Payments {
  constructor(private readonly transport: Transport) {}

  retrieve(paymentId: PaymentId, options?: RequestOptions) {
    return this.transport.call('getPayment', { path: { paymentId } }, options);
  }
  list(query: Query<'listPayments'> = {}, options?: RequestOptions) {
    return listOf(this.transport, 'listPayments', { query }, options);
  }
}

/** A payment's refunds (`/payments/{paymentId}/refunds`). */
export class Refunds {
  constructor(private readonly transport: Transport) {}

  create(paymentId: PaymentId, body: Input<'createRefund'> = {}, options?: RequestOptions) {
    return this.transport.call('createRefund', { path: { paymentId }, body }, options);
  }
  retrieve(paymentId: PaymentId, refundId: RefundId, options?: RequestOptions) {
    return this.transport.call('getRefund', { path: { paymentId, refundId } }, options);
  }
  list(paymentId: PaymentId, query: Query<'listRefunds'> = {}, options?: RequestOptions) {
    return listOf(this.transport, 'listRefunds', { path: { paymentId }, query }, options);
  }
}

export class WebhookEndpoints {
  constructor(private readonly transport: Transport) {}

  /** Registers an endpoint; the answer holds its signing secret, this once. */
  create(body: Input<'createWebhookEndpoint'>, options?: RequestOptions) {
    return this.transport.call('createWebhookEndpoint', { body }, options);
  }
  list(query: Query<'listWebhookEndpoints'> = {}, options?: RequestOptions) {
    return listOf(this.transport, 'listWebhookEndpoints', { query }, options);
  }
  update(endpointId: WebhookEndpointId, body: Input<'updateWebhookEndpoint'>, options?: RequestOptions) {
    return this.transport.call(
      'updateWebhookEndpoint',
      { path: { webhookEndpointId: endpointId }, body },
      options,
    );
  }
  delete(endpointId: WebhookEndpointId, options?: RequestOptions) {
    return this.transport.call('deleteWebhookEndpoint', { path: { webhookEndpointId: endpointId } }, options);
  }
  /** A new signing secret, in the answer this once; the old one stops signing at once. */
  rotateSecret(endpointId: WebhookEndpointId, options?: RequestOptions) {
    return this.transport.call('rotateWebhookSecret', { path: { webhookEndpointId: endpointId } }, options);
  }
  /** Sends the endpoint a test delivery of `eventType`, with sample data. */
  sendTest(endpointId: WebhookEndpointId, body: Input<'sendTestWebhook'>, options?: RequestOptions) {
    return this.transport.call('sendTestWebhook', { path: { webhookEndpointId: endpointId }, body }, options);
  }
}

/** Deliveries to an endpoint, and those of one event. */
export class Deliveries {
  constructor(private readonly transport: Transport) {}

  list(endpointId: WebhookEndpointId, query: Query<'listWebhookDeliveries'> = {}, options?: RequestOptions) {
    const path = { webhookEndpointId: endpointId };
    return listOf(this.transport, 'listWebhookDeliveries', { path, query }, options);
  }
  /** Every delivery of one event, to each endpoint, with its attempts. */
  listForEvent(eventId: EventId, query: Query<'listEventDeliveries'> = {}, options?: RequestOptions) {
    return listOf(this.transport, 'listEventDeliveries', { path: { eventId }, query }, options);
  }
  /** Sends a delivery again, as a new delivery of the same event. */
  redeliver(endpointId: WebhookEndpointId, deliveryId: WebhookDeliveryId, options?: RequestOptions) {
    const path = { webhookEndpointId: endpointId, webhookDeliveryId: deliveryId };
    return this.transport.call('redeliverWebhook', { path }, options);
  }
}

/** The event log (`/events`). */
export class Events {
  constructor(private readonly transport: Transport) {}

  retrieve(eventId: EventId, options?: RequestOptions) {
    return this.transport.call('getEvent', { path: { eventId } }, options);
  }
  list(query: Query<'listEvents'> = {}, options?: RequestOptions) {
    return listOf(this.transport, 'listEvents', { query }, options);
  }
}

/** Redelivering what an endpoint missed over a time range. */
export class Recoveries {
  constructor(private readonly transport: Transport) {}

  create(endpointId: WebhookEndpointId, body: Input<'recoverWebhookDeliveries'>, options?: RequestOptions) {
    return this.transport.call(
      'recoverWebhookDeliveries',
      { path: { webhookEndpointId: endpointId }, body },
      options,
    );
  }
  retrieve(endpointId: WebhookEndpointId, recoveryId: WebhookRecoveryId, options?: RequestOptions) {
    const path = { webhookEndpointId: endpointId, recoveryId };
    return this.transport.call('getWebhookRecovery', { path }, options);
  }
}

/** Links into the merchant portal for the merchant's own users. */
export class PortalSessions {
  constructor(private readonly transport: Transport) {}

  create(body: Input<'createPortalSession'>, options?: RequestOptions) {
    return this.transport.call('createPortalSession', { body }, options);
  }
  revoke(portalSessionId: PortalSessionId, options?: RequestOptions) {
    return this.transport.call('revokePortalSession', { path: { portalSessionId } }, options);
  }
}

/** The merchant's Stripe account, in production. */
export class ProcessorAccount {
  constructor(private readonly transport: Transport) {}

  retrieve(options?: RequestOptions) {
    return this.transport.call('getProcessorAccount', {}, options);
  }
  link(body: Input<'linkProcessorAccount'>, options?: RequestOptions) {
    return this.transport.call('linkProcessorAccount', { body }, options);
  }
}

/** The sandbox's simulated money movements (docs/sandbox-testing.md); production answers 404. */
export class Sandbox {
  constructor(private readonly transport: Transport) {}

  createPayment(body: Input<'createSandboxPayment'>, options?: RequestOptions) {
    return this.transport.call('createSandboxPayment', { body }, options);
  }
  refundPayment(paymentId: PaymentId, body: Input<'refundSandboxPayment'> = {}, options?: RequestOptions) {
    return this.transport.call('refundSandboxPayment', { path: { paymentId }, body }, options);
  }
  returnPayment(paymentId: PaymentId, options?: RequestOptions) {
    return this.transport.call('returnSandboxPayment', { path: { paymentId } }, options);
  }
  createPayout(body: Input<'createSandboxPayout'>, options?: RequestOptions) {
    return this.transport.call('createSandboxPayout', { body }, options);
  }
}

/**
 * The pay link's public routes, as the pay page calls them for the customer: no API key is needed
 * or sent, the invoice's slug stands for it. Never log a slug.
 */
export class PayLink {
  constructor(private readonly transport: Transport) {}

  retrieve(body: Input<'getPayInvoice'>, options?: RequestOptions) {
    return this.transport.call('getPayInvoice', { body, anonymous: true }, options);
  }
  /** Pays with a card or bank account in the sandbox (test numbers in docs/sandbox-testing.md). */
  pay(body: Input<'payInvoice'>, options?: RequestOptions) {
    return this.transport.call('payInvoice', { body, anonymous: true }, options);
  }
  /** A Stripe Checkout session to pay in production. */
  createCheckoutSession(body: Input<'createCheckoutSession'>, options?: RequestOptions) {
    return this.transport.call('createCheckoutSession', { body, anonymous: true }, options);
  }
}
