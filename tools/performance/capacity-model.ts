import type { PartitionUnits } from './consumed-capacity';
import { EmailSteps } from './email-pipeline-steps';
import type { OperationUnits, SentBytes } from './performance-models';

/** What one run measured: the units of each operation, and what each sent to the internet. */
export interface Measurements {
  readonly measured: ReadonlyMap<string, OperationUnits>;
  readonly sent: SentBytes;
}

/** Production's payment through Stripe's Checkout, by its two operations. */
export const StripeSteps = {
  session: 'createCheckoutSession',
  succeeded: 'receiveStripeEvent: payment_intent.succeeded',
} as const;

/** The delivery pipeline's steps, each called directly so its commands are told apart from others. */
export const PipelineSteps = {
  route: 'router: event → delivery',
  failed: 'dispatcher: failed attempt',
  succeeded: 'dispatcher: successful attempt',
  failedFirst: 'dispatcher: failed attempt, first of a run',
  succeededLast: 'dispatcher: successful attempt, ending a run',
  reconcile: 'reconciler: one pass',
} as const;

/** Operations as the doc lists them, by route class, then the pipeline. */
export const operationOrder: readonly string[] = [
  'getInvoice',
  'getPayment',
  'listPayments',
  'getPayInvoice',
  'createProduct',
  'createCustomer',
  'createInvoice',
  'createWebhookEndpoint',
  'issueInvoice',
  'voidInvoice',
  'recordInvoicePayment',
  'rotateInvoiceUrlSlug',
  'createSandboxPayment',
  'payInvoice',
  'refundSandboxPayment',
  StripeSteps.session,
  StripeSteps.succeeded,
  PipelineSteps.route,
  PipelineSteps.failed,
  PipelineSteps.succeeded,
  PipelineSteps.failedFirst,
  PipelineSteps.succeededLast,
  PipelineSteps.reconcile,
  EmailSteps.route,
  EmailSteps.send,
  EmailSteps.bounce,
];

export type UnitFilter = (unit: PartitionUnits) => boolean;

export const all: UnitFilter = () => true;
export const merchantPartition: UnitFilter = (unit) =>
  unit.index === 'table' && unit.partition === 'MERCHANT#<mer>';
export const endpointPartition: UnitFilter = (unit) =>
  unit.index === 'table' && unit.partition === 'DELIVERIES#<whk>';
export const onTable =
  (prefix: string): UnitFilter =>
  (unit) =>
    unit.index === 'table' && unit.partition.startsWith(prefix);
export const onItem =
  (prefix: string): UnitFilter =>
  (unit) =>
    merchantPartition(unit) && unit.item.startsWith(prefix);
export const onIndex =
  (index: string, partition?: string): UnitFilter =>
  (unit) =>
    unit.index === index && (partition === undefined || unit.partition === partition);
export const dueShards = onIndex('GSI1', 'DUE_DELIVERIES#nn');
export const paidInvoices = onIndex('GSI1', 'MERCHANT#<mer>#INVOICES#paid');

/** A delivery whose first attempt succeeds: routed, then dispatched once. */
export const deliveryOperations: readonly string[] = [PipelineSteps.route, PipelineSteps.succeeded];
/** A delivery retried once: one failed attempt more. */
export const retried: readonly string[] = [...deliveryOperations, PipelineSteps.failed];

/**
 * What a merchant's write shards spread: every item of its partition but the two counters and the
 * rarely written catalog, customer, endpoint and merchant items (measured here for one shard, so
 * the units are those the shards share evenly, the shard of a new item being drawn at random).
 */
export const movesWithShards: UnitFilter = (unit) =>
  merchantPartition(unit) && /^(PAYMENT|REFUND|INVOICE|INVOICE_PAYMENT|PAYOUT)#/.test(unit.item);
export const paymentOperations: readonly string[] = [
  'createSandboxPayment',
  'payInvoice',
  'refundSandboxPayment',
];

/** The units `operations` put on the partitions `matches` picks, of one kind, as measured. */
export function unitsOn(
  measured: ReadonlyMap<string, OperationUnits>,
  operations: readonly string[],
  matches: UnitFilter,
  kind: 'read' | 'write' = 'write',
): number {
  return operations
    .flatMap((operation) => {
      const found = measured.get(operation);
      if (found === undefined) throw new Error(`${operation} was not measured`);
      return found.units;
    })
    .filter(matches)
    .reduce((total, unit) => total + unit[kind], 0);
}
