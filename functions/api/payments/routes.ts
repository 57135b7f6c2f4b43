import { defineRoute, type RouteDefinition } from '../../route-definition';
import { Payment, PaymentPathParams, Refund } from '../payment-schemas';
import { listResponse, MerchantQuery } from '../shared-schemas';
import { CreateRefundBody, ListPaymentsQuery, ListRefundsQuery, RefundPathParams } from './schemas';

/** The payment routes: payments and their refunds, and a merchant's refund of a payment. */
export const paymentRoutes = {
  listPayments: defineRoute({
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
  getPayment: defineRoute({
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
  listRefunds: defineRoute({
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
  createRefund: defineRoute({
    operationId: 'createRefund',
    method: 'POST',
    path: '/payments/{paymentId}/refunds',
    summary:
      'Refund part or all of what is left of a payment: at once in the sandbox, `pending` until Stripe confirms it in production',
    tag: 'Payments',
    handler: 'api/payments/create-refund',
    merchantScope: 'body',
    request: { params: PaymentPathParams, body: CreateRefundBody },
    successStatus: 201,
    response: Refund,
    callsProcessor: true,
  }),
  getRefund: defineRoute({
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
} as const satisfies Record<string, RouteDefinition>;
