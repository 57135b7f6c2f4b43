import { numberDeliveries } from '../domain/delivery-sequence';
import type { DeliveryShardHistory } from '../domain/delivery-shards';
import type { WebhookDelivery } from '../domain/webhook-delivery';
import { buildAdvanceSequence, lastSequenceOf } from './delivery-sequences';
import { sendTransaction, type TransactItems, TransactionConditionFailed } from './transaction';
import { buildCreateDelivery } from './webhook-deliveries';

/** DynamoDB's limit on the actions of one TransactWriteItems. */
export const maxActionsPerTransaction = 100;

/** Creating a delivery takes one action: the delivery's put (`buildCreateDelivery`). */
const actionsPerDelivery = 1;

/**
 * What the items of one transaction may weigh by their JSON size. DynamoDB refuses a transaction
 * over 4 MB; JSON overstates an item's stored size (quotes, braces), and the margin covers the rest.
 */
export const maxTransactionJsonBytes = 3_000_000;

/** What a sequence Update weighs at most by the same measure: a few short attributes. */
const sequenceUpdateJsonBytes = 1_000;

/**
 * How often a transaction is sent again after a failed condition: each round drops deliveries
 * that exist or takes the numbers another writer left. Past it the stream batch is retried.
 */
const maxRounds = 25;

/** A delivery to create, with its endpoint's shard history, which places it. */
export interface NewDelivery {
  readonly delivery: WebhookDelivery;
  readonly shards: DeliveryShardHistory;
}

/**
 * The new deliveries grouped into as few transactions as DynamoDB's limits allow, in the order
 * given: each group's puts (one per delivery) plus one sequence Update per endpoint it names stay
 * within 100 actions, and its items within the size budget. A delivery named twice is kept once: a transaction may not
 * name an item twice.
 */
export function groupNewDeliveries(deliveries: readonly NewDelivery[]): NewDelivery[][] {
  const groups: NewDelivery[][] = [];
  let current: NewDelivery[] = [];
  let endpoints = new Set<string>();
  let currentBytes = 0;
  const seen = new Set<string>();
  for (const each of deliveries) {
    const { delivery, shards } = each;
    if (seen.has(delivery.webhookDeliveryId)) continue;
    seen.add(delivery.webhookDeliveryId);
    const newEndpoint = !endpoints.has(delivery.webhookEndpointId);
    const actions = (current.length + 1) * actionsPerDelivery + endpoints.size + (newEndpoint ? 1 : 0);
    const bytes =
      buildCreateDelivery(delivery, delivery.createdAt, shards).reduce(
        (sum, { Put }) => sum + Buffer.byteLength(JSON.stringify(Put.Item)),
        0,
      ) + (newEndpoint ? sequenceUpdateJsonBytes : 0);
    if (actions > maxActionsPerTransaction || currentBytes + bytes > maxTransactionJsonBytes) {
      if (current.length > 0) groups.push(current);
      current = [];
      endpoints = new Set();
      currentBytes = bytes + (newEndpoint ? 0 : sequenceUpdateJsonBytes);
    } else {
      currentBytes += bytes;
    }
    current.push(each);
    endpoints.add(delivery.webhookEndpointId);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * One group's transaction: the conditional put of each delivery, numbered in its endpoint's
 * sequence from `lastSequences`, then one Update per endpoint advancing its sequence by its number
 * of deliveries. The puts come first, one per delivery, so a failed condition's index below
 * `group.length` names a delivery that exists (`deliveryOfAction`) and
 * one at or above it an endpoint whose sequence moved.
 */
export function buildNumberedTransaction(
  group: readonly NewDelivery[],
  lastSequences: ReadonlyMap<string, number>,
) {
  const { numbered, advances } = numberDeliveries(
    group.map(({ delivery }) => delivery),
    lastSequences,
  );
  // No ALL_OLD on the puts: the router only needs to know which deliveries exist, not their content.
  const items: TransactItems = [
    ...numbered.flatMap((delivery, index) =>
      buildCreateDelivery(delivery, delivery.createdAt, group[index]?.shards ?? []),
    ),
    ...advances.map((advance) => buildAdvanceSequence(advance)),
  ];
  return { items, advances };
}

/** The delivery of the group an action of its transaction creates, or undefined for a sequence Update. */
export function deliveryOfAction(actionIndex: number, groupLength: number): number | undefined {
  return actionIndex < groupLength * actionsPerDelivery
    ? Math.floor(actionIndex / actionsPerDelivery)
    : undefined;
}

/**
 * Creates every delivery that does not exist yet, each with the next number of its endpoint's
 * sequence, and leaves existing ones untouched: a replayed stream batch must never reset an
 * attempted delivery, add a second one, or take a number (DESIGN §1, §7). `lastSequences` holds
 * each endpoint's last number as read (0 when absent). One round trip per transaction, one
 * sequence write per endpoint in it; when some deliveries exist, or another writer advanced an
 * endpoint's sequence since it was read, the rest are numbered afresh (from the number the failed
 * condition returned) and sent again, until the transaction commits. Any other failure is thrown,
 * so the stream batch is retried. Resolves with the number created.
 */
export async function putNewDeliveries(
  deliveries: readonly NewDelivery[],
  lastSequences: ReadonlyMap<string, number> = new Map(),
): Promise<number> {
  const sequences = new Map(lastSequences);
  let created = 0;
  for (const group of groupNewDeliveries(deliveries)) {
    created += await putMissing(group, sequences);
  }
  return created;
}

async function putMissing(group: readonly NewDelivery[], sequences: Map<string, number>): Promise<number> {
  let remaining = group;
  for (let round = 1; remaining.length > 0; round += 1) {
    const { items, advances } = buildNumberedTransaction(remaining, sequences);
    try {
      await sendTransaction(items);
      for (const { webhookEndpointId, to } of advances) sequences.set(webhookEndpointId, to);
      return remaining.length;
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed) || round >= maxRounds) throw error;
      const existing = new Set<number>();
      for (const { index, existing: item } of error.failures) {
        const delivery = deliveryOfAction(index, remaining.length);
        const advance = advances[index - remaining.length * actionsPerDelivery];
        if (delivery !== undefined) existing.add(delivery);
        else if (advance !== undefined) sequences.set(advance.webhookEndpointId, lastSequenceOf(item));
      }
      remaining = remaining.filter((_, index) => !existing.has(index));
    }
  }
  return 0;
}
