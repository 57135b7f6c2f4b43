import { committedStageConfig } from '../../lib/stage-config';
import { deliveryOperations, PipelineSteps, StripeSteps } from './capacity-model';
import { EmailSteps } from './email-pipeline-steps';
import type { CostLine, PricedStage } from './performance-models';

/**
 * The route classes, the delivery pipeline, the emails and Stripe's Checkout priced per million
 * (the costs table of docs/performance.md), each by the measured operations it is made of and the
 * names of the model's inputs in the doc's unit price table.
 */
export const costLines: readonly CostLine[] = [
  {
    name: 'GET one invoice',
    operations: ['getInvoice'],
    lambda: [{ invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'List page of 20 payments',
    operations: ['listPayments'],
    lambda: [{ invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'Pay page view of an invoice',
    operations: ['getPayInvoice'],
    lambda: [{ invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'Create an invoice',
    operations: ['createInvoice'],
    lambda: [{ invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'Transition (issue an invoice)',
    operations: ['issueInvoice'],
    lambda: [{ invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'Payment (sandbox card)',
    operations: ['createSandboxPayment'],
    lambda: [{ invocations: 'one', durationMs: 'paymentRouteMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'Payment (pay link)',
    operations: ['payInvoice'],
    lambda: [{ invocations: 'one', durationMs: 'paymentRouteMs', initMs: 'routeInitMs' }],
    apiRequests: 1,
    sqsRequests: undefined,
    logBytes: 'logBytesPerApiCall',
  },
  {
    name: 'Webhook delivery, first attempt succeeds',
    operations: deliveryOperations,
    lambda: [
      { invocations: 'routerInvocationsPerDelivery', durationMs: 'routerMs', initMs: 'routerInitMs' },
      { invocations: 'one', durationMs: 'dispatcherMs', initMs: 'dispatcherInitMs' },
    ],
    apiRequests: 0,
    sqsRequests: 'sqsRequestsPerAttempt',
    logBytes: 'logBytesPerDelivery',
  },
  {
    name: 'One retry more (a failed attempt)',
    operations: [PipelineSteps.failed],
    lambda: [
      { invocations: 'one', durationMs: 'routerMs', initMs: 'routerInitMs' },
      { invocations: 'one', durationMs: 'dispatcherMs', initMs: 'dispatcherInitMs' },
    ],
    apiRequests: 0,
    sqsRequests: 'sqsRequestsPerAttempt',
    logBytes: 'logBytesPerDelivery',
  },
  {
    name: 'Invoice email, sent',
    operations: [EmailSteps.route, EmailSteps.send],
    lambda: [
      { invocations: 'one', durationMs: 'routerMs', initMs: 'routerInitMs' },
      { invocations: 'one', durationMs: 'mailerMs', initMs: 'mailerInitMs' },
    ],
    apiRequests: 0,
    sqsRequests: 'sqsRequestsPerAttempt',
    emails: 'one',
    logBytes: 'logBytesPerEmail',
  },
  {
    name: 'Bounce of an email, recorded',
    operations: [EmailSteps.bounce],
    lambda: [{ invocations: 'one', durationMs: 'sesEventsMs', initMs: 'sesEventsInitMs' }],
    apiRequests: 0,
    sqsRequests: undefined,
    snsNotifications: 'one',
    logBytes: 'logBytesPerSesEvent',
  },
  {
    // Production's: the payer's Checkout Session (a payment route, waiting on Stripe), then Stripe's
    // event that pays the invoice. Stripe's fee is the merchant's (a direct charge), not in the row.
    name: 'Payment through Stripe Checkout',
    operations: [StripeSteps.session, StripeSteps.succeeded],
    lambda: [
      { invocations: 'one', durationMs: 'paymentRouteMs', initMs: 'routeInitMs' },
      { invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' },
    ],
    apiRequests: 2,
    sqsRequests: undefined,
    logBytes: 'logBytesPerStripePayment',
  },
];

/** The stage the per-million figures price: production, with the sampling and retention of its stage file. */
export const pricedStage: PricedStage = {
  name: 'production',
  traceSampling: committedStageConfig('production').traceSampling,
  logRetentionDays: committedStageConfig('production').logRetentionDays,
};

/** The line of `costLines` named `name`, or a clear error naming one the table lacks. */
export function costLineNamed(name: string): CostLine {
  const line = costLines.find((candidate) => candidate.name === name);
  if (line === undefined) throw new Error(`the cost table has no line "${name}"`);
  return line;
}
