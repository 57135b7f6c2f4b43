import { PayLinkDeclineLimit } from '../../domain/pay-link-declines';
import { defineRoute, type RouteDefinition } from '../../route-definition';
import {
  CheckoutSessionRequest,
  CheckoutSessionView,
  PayInvoiceBody,
  PayInvoiceRequest,
  PayInvoiceResult,
  PayInvoiceView,
  PayPage,
} from './schemas';

/**
 * The public routes of the hosted pay page: the page itself, the invoice it shows, and how it pays:
 * with the card or account typed into it in the sandbox, on Stripe's Checkout in production.
 */
export const payPageRoutes = {
  servePayPage: defineRoute({
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
  getPayInvoice: defineRoute({
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
  payInvoice: defineRoute({
    operationId: 'payInvoice',
    method: 'POST',
    path: '/pay/payments',
    summary: 'Public: pay the amount remaining of the invoice a pay-link slug leads to (sandbox only)',
    tag: 'Pay page',
    handler: 'api/pay/pay-invoice',
    merchantScope: 'none',
    request: { body: PayInvoiceRequest },
    successStatus: 201,
    response: PayInvoiceResult,
    access: 'public',
    callsProcessor: true,
    ownRateLimit:
      `this pay link had ${PayLinkDeclineLimit.perSlug} declined payments within the last ` +
      `${PayLinkDeclineLimit.windowMs / 60_000} minutes, or the invoice ${PayLinkDeclineLimit.perInvoice} ` +
      'through all its pay links; it takes payments again when the oldest of them is ' +
      `${PayLinkDeclineLimit.windowMs / 60_000} minutes old. A new slug (\`POST /invoices/{id}/rotate-url-slug\`) ` +
      "starts its link's count afresh; `POST /invoices/{id}/clear-pay-link-declines` clears both. " +
      'Nothing is charged or written.',
    // Card and account numbers reach the service only in the sandbox, as its test numbers.
    stages: ['sandbox'],
  }),
  createCheckoutSession: defineRoute({
    operationId: 'createCheckoutSession',
    method: 'POST',
    path: '/pay/checkout-sessions',
    summary:
      "Public: open Stripe's hosted Checkout for the amount remaining of the invoice a pay-link slug leads to (production only)",
    tag: 'Pay page',
    handler: 'api/pay/create-checkout-session',
    merchantScope: 'none',
    request: { body: CheckoutSessionRequest },
    successStatus: 201,
    response: CheckoutSessionView,
    access: 'public',
    callsProcessor: true,
    stages: ['production'],
  }),
} as const satisfies Record<string, RouteDefinition>;
