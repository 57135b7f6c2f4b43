import { dispatcherQueue } from '../../lib/constructs/delivery-pipeline';
import { committedStageConfig } from '../../lib/stage-config';
import {
  all,
  deliveryOperations,
  dueShards,
  endpointPartition,
  type Measurements,
  merchantPartition,
  movesWithShards,
  onIndex,
  onItem,
  onTable,
  PipelineSteps,
  paidInvoices,
  paymentOperations,
  retried,
  StripeSteps,
  type UnitFilter,
  unitsOn,
} from './capacity-model';
import { costLineNamed, pricedStage } from './cost-lines';
import { EmailSteps } from './email-pipeline-steps';
import { figureNumber as n } from './model-figures';
import {
  bytesPerGb,
  ceilingOf,
  daysPerMonth,
  inputOf,
  lineCost,
  money,
  PartitionLimit,
  percent,
} from './performance-models';

type Figure = [name: string, value: string];

/** The rate the key question asks of one merchant or one endpoint. */
const questionRate = 500;

/** A pay-link invoice's life: created, issued, its pay page viewed twice, paid. */
const invoiceLife = ['createInvoice', 'issueInvoice', 'getPayInvoice', 'getPayInvoice', 'payInvoice'];

/** Every figure the model's prose states, by the name its marker carries in docs/performance.md. */
export function modelFigures(
  measurements: Measurements,
  inputs: Record<string, number>,
): Map<string, string> {
  return new Map([
    ...unitFigures(measurements),
    ...pipelineUnitFigures(measurements),
    ...costFigures(measurements, inputs),
    ...capacityFigures(measurements, inputs),
  ]);
}

/** The units `operation` puts on the partitions `matches` picks. */
function unitsOf(measurements: Measurements) {
  return (operations: readonly string[], matches: UnitFilter, kind: 'read' | 'write' = 'write') =>
    unitsOn(measurements.measured, operations, matches, kind);
}

/** The units of the API's operations, by partition. */
function unitFigures(measurements: Measurements): Figure[] {
  const on = unitsOf(measurements);
  const writes = (operation: string, matches: UnitFilter) => on([operation], matches);
  return [
    ['partition.write', n(PartitionLimit.write)],
    ['partition.read', n(PartitionLimit.read)],
    ['partition.half', n(PartitionLimit.write / 2)],
    ['card.idempotency', n(writes('createSandboxPayment', onTable('IDEMPOTENCY#')))],
    ['card.merchant', n(writes('createSandboxPayment', merchantPartition))],
    ['card.event', n(writes('createSandboxPayment', onTable('EVENT#')))],
    ['card.eventIndexes', n(writes('createSandboxPayment', (unit) => unit.index !== 'table'))],
    ['card.wru', n(writes('createSandboxPayment', all))],
    ['payLink.invoice', n(writes('payInvoice', onItem('INVOICE#')))],
    ['payLink.gsi3', n(writes('payInvoice', onIndex('GSI3')))],
    ['payLink.wru', n(writes('payInvoice', all))],
    ['payLink.merchant', n(writes('payInvoice', merchantPartition))],
    ['payLink.rru', n(on(['payInvoice'], all, 'read'))],
    ['payView.rru', n(on(['getPayInvoice'], all, 'read'))],
    ['issue.gsi3', n(writes('issueInvoice', onIndex('GSI3')))],
    ['rotate.gsi3', n(writes('rotateInvoiceUrlSlug', onIndex('GSI3')))],
    [
      'create.merchantRead',
      n(on(['createInvoice'], (unit) => merchantPartition(unit) && unit.item === 'MERCHANT', 'read')),
    ],
    ['invoiceLife.rru', n(on(invoiceLife, all, 'read'))],
    ['invoiceLife.wru', n(on(invoiceLife, all))],
    ['refund.payment', n(writes('refundSandboxPayment', onItem('PAYMENT#')))],
    ['refund.refund', n(writes('refundSandboxPayment', onItem('REFUND#')))],
    ['refund.merchant', n(writes('refundSandboxPayment', merchantPartition))],
    ['list.rru', n(on(['listPayments'], all, 'read'))],
    ['checkout.sessionWru', n(writes(StripeSteps.session, all))],
    ['checkout.eventWru', n(writes(StripeSteps.succeeded, all))],
  ];
}

/** The units of the delivery pipeline's and the emails' steps, by partition. */
function pipelineUnitFigures(measurements: Measurements): Figure[] {
  const on = unitsOf(measurements);
  const writes = (operation: string, matches: UnitFilter) => on([operation], matches);
  return [
    ['route.endpoint', n(writes(PipelineSteps.route, endpointPartition))],
    ['route.due', n(writes(PipelineSteps.route, dueShards))],
    ['route.gsi5', n(writes(PipelineSteps.route, onIndex('GSI5')))],
    ['success.endpoint', n(writes(PipelineSteps.succeeded, endpointPartition))],
    ['success.due', n(writes(PipelineSteps.succeeded, dueShards))],
    ['failure.endpoint', n(writes(PipelineSteps.failed, endpointPartition))],
    ['failure.due', n(writes(PipelineSteps.failed, dueShards))],
    ['delivery.wru', n(on(deliveryOperations, all))],
    ['delivery.rru', n(on(deliveryOperations, all, 'read'))],
    ['health.wru', n(writes(PipelineSteps.failedFirst, all) - writes(PipelineSteps.failed, all))],
    ['reconciler.queries', n(measurements.measured.get(PipelineSteps.reconcile)?.commands.length ?? 0)],
    ['reconciler.rru', n(on([PipelineSteps.reconcile], all, 'read'))],
    ['email.routerRru', n(on([EmailSteps.route], all, 'read'))],
    ['email.routerWru', n(writes(EmailSteps.route, all))],
    ['email.mailerRru', n(on([EmailSteps.send], all, 'read'))],
    ['email.mailerWru', n(writes(EmailSteps.send, all))],
    ['email.due', n(on([EmailSteps.route, EmailSteps.send], onIndex('GSI1')))],
    ['email.hour', n(writes(EmailSteps.send, onItem('EMAIL_HOUR#')))],
    ['bounce.wru', n(writes(EmailSteps.bounce, all))],
    ['sequence.wru', n(writes(PipelineSteps.route, onItem('WEBHOOK_DELIVERY_SEQUENCE#')))],
  ];
}

/** Dollars per million, by line and part, and what the free tier and the log retention make of them. */
function costFigures(measurements: Measurements, inputs: Record<string, number>): Figure[] {
  const input = inputOf(inputs);
  const on = unitsOf(measurements);
  const priced = (line: string, overrides: Record<string, number> = {}) =>
    lineCost(
      costLineNamed(line),
      measurements.measured,
      measurements.sent,
      { ...inputs, ...overrides },
      pricedStage,
    );
  const read = priced('GET one invoice');
  const list = priced('List page of 20 payments');
  const delivery = priced('Webhook delivery, first attempt succeeds');
  const email = priced('Invoice email, sent');
  const bounce = priced('Bounce of an email, recorded');
  const checkout = priced('Payment through Stripe Checkout');
  const lifeDollars =
    on(invoiceLife, all, 'read') * input('readRequestUnit') +
    on(invoiceLife, all) * input('writeRequestUnit');
  const freeGb = 100;
  return [
    ['invoiceLife.dynamodb', money(lifeDollars)],
    ['email.total', money(email.total)],
    ['email.ses', money(email.ses)],
    ['email.dynamodb', money(email.dynamodb)],
    ['bounce.total', money(bounce.total)],
    ['bounce.sns', money(bounce.sns)],
    ['checkout.total', money(checkout.total)],
    ['checkout.dynamodb', money(checkout.dynamodb)],
    ['checkout.api', money(checkout.api)],
    ['checkout.bytesOut', n(checkout.bytesOut)],
    ['sampling.production', percent(pricedStage.traceSampling.fixedRate)],
    ['read.api', money(read.api)],
    ['read.total', money(read.total)],
    ['read.waf', money(read.waf)],
    ['read.xray', money(read.xray)],
    ['free.dataOut', money(freeGb * input('dataTransferOutGb'))],
    ['free.reads', n(Math.round((freeGb * bytesPerGb) / read.bytesOut / 1e6))],
    ['read.bytesOut', n(read.bytesOut)],
    ['read.dataOut', money(read.dataOut)],
    ['list.bytesOut', n(list.bytesOut)],
    ['list.dataOut', money(list.dataOut)],
    ['delivery.bytesOut', n(delivery.bytesOut)],
    ['delivery.dataOut', money(delivery.dataOut)],
    ['read.init', money(read.lambdaInit)],
    ['read.initAllCold', money(priced('GET one invoice', { coldStartShare: 1 }).lambdaInit)],
    ['delivery.init', money(delivery.lambdaInit)],
    ['logs.retention', n(pricedStage.logRetentionDays)],
    ['logs.months', n(pricedStage.logRetentionDays / daysPerMonth)],
    ['logs.monthDays', n(daysPerMonth)],
    ['read.logStorage', money(read.logStorage)],
    ['list.rru8', n(8 * on(['listPayments'], all, 'read'))],
    ['list.dollars8', money(8 * on(['listPayments'], all, 'read') * input('readRequestUnit'))],
  ];
}

/** The rates each hot key allows, the dispatcher's and the throttle's, and what 500/s asks of them. */
function capacityFigures(measurements: Measurements, inputs: Record<string, number>): Figure[] {
  const input = inputOf(inputs);
  const on = unitsOf(measurements);
  const perSecond = (value: number) => `${n(value)}/s`;
  const production = committedStageConfig('production').throttle;
  const inFlight = dispatcherQueue.maxConcurrency * dispatcherQueue.batchSize;
  const payments = on(paymentOperations, movesWithShards);
  const moved = (operation: string) => on([operation], movesWithShards);
  const shardsFor = (units: number) => n(Math.ceil((questionRate * units) / PartitionLimit.write));
  const sequence = on([PipelineSteps.route], onItem('WEBHOOK_DELIVERY_SEQUENCE#'));
  return [
    ['payLink.ceiling', ceilingOf(on(['payInvoice'], merchantPartition), 'write')],
    ['refund.ceiling', ceilingOf(on(['refundSandboxPayment'], merchantPartition), 'write')],
    ['counter.ceiling', ceilingOf(on(['createInvoice'], onItem('COUNTER#INVOICE_NUMBER')), 'write')],
    ['sequence.ceiling', ceilingOf(sequence, 'write')],
    ['endpoint.wru', n(on(deliveryOperations, endpointPartition))],
    ['endpoint.retryWru', n(on(retried, endpointPartition))],
    ['endpoint.ceiling', ceilingOf(on(deliveryOperations, endpointPartition), 'write')],
    ['endpoint.retryCeiling', ceilingOf(on(retried, endpointPartition), 'write')],
    ['endpoint.retryCeiling4', ceilingOf(on(retried, endpointPartition), 'write', 4)],
    ['endpoint.retryCeiling16', ceilingOf(on(retried, endpointPartition), 'write', 16)],
    ['due.ceiling', ceilingOf(on(deliveryOperations, dueShards), 'write', 16)],
    ['reads.ceiling', ceilingOf(on(deliveryOperations, merchantPartition, 'read'), 'read')],
    ['dispatcher.concurrency', n(dispatcherQueue.maxConcurrency)],
    ['dispatcher.batch', n(dispatcherQueue.batchSize)],
    ['dispatcher.inFlight', n(inFlight)],
    ['dispatcher.rate', perSecond(Math.floor(inFlight / (input('dispatcherMs') / 1000)))],
    ['production.throttle', perSecond(production.rateLimit)],
    ['production.burst', n(production.burstLimit)],
    ['question.card', n(questionRate * on(['createSandboxPayment'], merchantPartition))],
    ['question.payLink8', n((questionRate * moved('payInvoice')) / 8)],
    ['question.card8', n((questionRate * moved('createSandboxPayment')) / 8)],
    ['question.refund8', n((questionRate * moved('refundSandboxPayment')) / 8)],
    ['question.paid8', n((questionRate * on(['payInvoice'], paidInvoices)) / 8)],
    ['question.all16', n((questionRate * payments) / 16)],
    ['question.endpoint', n(questionRate * on(deliveryOperations, endpointPartition))],
    ['question.endpointRetry', n(questionRate * on(retried, endpointPartition))],
    ['question.endpoint4', n((questionRate * on(retried, endpointPartition)) / 4)],
    ['sizing.card', shardsFor(on(['createSandboxPayment'], merchantPartition))],
    ['sizing.payLink', shardsFor(on(['payInvoice'], merchantPartition))],
    ['sizing.endpoint', shardsFor(on(retried, endpointPartition))],
  ];
}
