import type { DeliveryShardHistory } from '../domain/delivery-shards';
import { type WebhookDelivery, withSequence } from '../domain/webhook-delivery';
import { RecoveryStatus, type StoredRecovery } from '../domain/webhook-recovery';
import { buildAdvanceSequence, withNextNumbers } from './delivery-sequences';
import { sendTransaction, TransactionConditionFailed } from './transaction';
import { buildCreateDelivery } from './webhook-deliveries';
import { buildAdvanceRecovery, buildReleaseRecoveryLock } from './webhook-recoveries';

/** Whether a batch was written, or found its recovery already past the step it was read at. */
export type BatchOutcome = 'committed' | 'stale';

/**
 * Writes one batch of a recovery in one transaction: the recovery's next state (only from the step
 * it was read at), each new delivery, numbered from the endpoint's next sequence number on with the
 * sequence's advance, and, when the recovery ends, its lock's release. A retried batch finds the
 * step moved and writes nothing ('stale'); when another writer took the numbers since
 * `lastSequence` was read, the batch is numbered afresh and sent again (`withNextNumbers`).
 */
export async function commitRecoveryBatch(
  previous: StoredRecovery,
  next: StoredRecovery,
  redeliveries: readonly WebhookDelivery[],
  shards: DeliveryShardHistory,
  lastSequence: number,
): Promise<BatchOutcome> {
  const { merchantId, webhookEndpointId } = next.recovery;
  // After the recovery's own write and the deliveries' puts: the sequence's advance.
  const sequenceIndex = 1 + redeliveries.length;
  return withNextNumbers(lastSequence, sequenceIndex, async (last) => {
    const numbered = redeliveries.map((delivery, index) => withSequence(delivery, last + 1 + index));
    const to = last + numbered.length;
    try {
      await sendTransaction([
        buildAdvanceRecovery(previous.step, next),
        ...numbered.flatMap((delivery) => buildCreateDelivery(delivery, delivery.createdAt, shards)),
        ...(numbered.length === 0
          ? []
          : [buildAdvanceSequence({ merchantId, webhookEndpointId, from: last, to })]),
        ...(next.recovery.status === RecoveryStatus.running ? [] : [buildReleaseRecoveryLock(next.recovery)]),
      ]);
      return 'committed';
    } catch (error) {
      if (error instanceof TransactionConditionFailed && error.failureAt(0) !== undefined) return 'stale';
      throw error;
    }
  });
}
