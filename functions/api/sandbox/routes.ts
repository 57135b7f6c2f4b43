import { defineRoute, type RouteDefinition } from '../../route-definition';
import { Payment, PaymentPathParams, Refund } from '../payment-schemas';
import { MerchantScopeBody } from '../shared-schemas';
import {
  CreateSandboxPaymentBody,
  CreateSandboxPayoutBody,
  Payout,
  RefundSandboxPaymentBody,
} from './schemas';

/** The sandbox routes: payments, refunds, returns and payouts a test processor makes up. */
export const sandboxRoutes = {
  createSandboxPayment: defineRoute({
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
  refundSandboxPayment: defineRoute({
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
  returnSandboxPayment: defineRoute({
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
  createSandboxPayout: defineRoute({
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
} as const satisfies Record<string, RouteDefinition>;
