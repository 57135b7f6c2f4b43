import type { DeliveryShardHistory } from '../domain/delivery-shards';
import type { WebhookDelivery } from '../domain/webhook-delivery';
import { sendTransaction, type TransactItems, TransactionConditionFailed } from './transaction';
import { buildPutNewDelivery } from './webhook-deliveries';

/** DynamoDB's limit on the actions of one TransactWriteItems. */
export const maxDeliveriesPerTransaction = 100;

/**
 * What the items of one transaction may weigh by their JSON size. DynamoDB refuses a transaction
 * over 4 MB; JSON overstates an item's stored size (quotes, braces), and the margin covers the rest.
 */
export const maxTransactionJsonBytes = 3_000_000;

/** A delivery to create, with its endpoint's shard history, which places it. */
export interface NewDelivery {
  readonly delivery: WebhookDelivery;
  readonly shards: DeliveryShardHistory;
}

/**
 * The conditional puts of new deliveries, each due when it was created, grouped into as few
 * transactions as DynamoDB's limits allow, in the order given. A delivery named twice is put once:
 * a transaction may not name an item twice.
 */
export function buildNewDeliveryTransactions(deliveries: readonly NewDelivery[]): TransactItems[] {
  const transactions: TransactItems[] = [];
  let current: TransactItems = [];
  let currentBytes = 0;
  const seen = new Set<string>();
  for (const { delivery, shards } of deliveries) {
    if (seen.has(delivery.webhookDeliveryId)) continue;
    seen.add(delivery.webhookDeliveryId);
    // No ALL_OLD: the router only needs to know which deliveries exist, not their content.
    const put = { Put: buildPutNewDelivery(delivery, delivery.createdAt, shards) };
    const bytes = Buffer.byteLength(JSON.stringify(put.Put.Item));
    if (current.length === maxDeliveriesPerTransaction || currentBytes + bytes > maxTransactionJsonBytes) {
      if (current.length > 0) transactions.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push(put);
    currentBytes += bytes;
  }
  if (current.length > 0) transactions.push(current);
  return transactions;
}

/**
 * Creates every delivery that does not exist yet and leaves existing ones untouched: a replayed
 * stream batch must never reset an attempted delivery or add a second one (DESIGN §1). One round
 * trip per transaction; when some deliveries already exist, the rest are sent again without them
 * until the transaction commits. Any other failure (throttling, a conflict that outlasts its
 * retries) is thrown, so the stream batch is retried. Resolves with the number created.
 */
export async function putNewDeliveries(deliveries: readonly NewDelivery[]): Promise<number> {
  let created = 0;
  for (const transaction of buildNewDeliveryTransactions(deliveries)) {
    created += await putMissing(transaction);
  }
  return created;
}

async function putMissing(transaction: TransactItems): Promise<number> {
  let remaining = transaction;
  while (remaining.length > 0) {
    try {
      await sendTransaction(remaining);
      return remaining.length;
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed)) throw error;
      const existing = new Set(error.failures.map((failure) => failure.index));
      remaining = remaining.filter((_, index) => !existing.has(index));
    }
  }
  return 0;
}
