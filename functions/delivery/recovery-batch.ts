import { newId } from '../domain/ids';
import { isoTimestamp } from '../domain/time';
import {
  afterBatch,
  canceledRecovery,
  deliveriesToRecover,
  RecoveryStatus,
  recoveryBatchSize,
  recoveryEndedBy,
  recoveryRedeliveryOf,
  type StoredRecovery,
} from '../domain/webhook-recovery';
import { logger } from '../observability/logger';
import { getEndpointWithSequence } from '../store/webhook-deliveries';
import {
  commitRecoveryBatch,
  newestDeliveriesOfEvents,
  readExhaustedBatch,
} from '../store/webhook-recoveries';

/**
 * One batch of a running recovery (docs/decisions/bulk-recovery.md), run by the router for each write of
 * the recovery's record: at most `recoveryBatchSize` exhausted deliveries of the window, each
 * redelivered when it is its event's newest delivery to the endpoint. The batch's commit writes the
 * record again, and that write's stream record runs the next batch, until the window is read. A
 * retried stream record finds its step taken and does nothing; an endpoint deleted, disabled or given
 * another URL meanwhile ends the recovery as canceled.
 */
export async function runRecoveryBatch(stored: StoredRecovery, now: Date): Promise<void> {
  if (stored.recovery.status !== RecoveryStatus.running) return;
  const { recovery } = stored;
  const createdAt = isoTimestamp(now);
  const { endpoint, lastSequence } = await getEndpointWithSequence(
    recovery.merchantId,
    recovery.webhookEndpointId,
  );
  const endedBy = recoveryEndedBy(stored, endpoint?.endpoint);
  if (endpoint === undefined || endedBy !== undefined) {
    await commitRecoveryBatch(stored, canceledRecovery(stored, createdAt), [], [], lastSequence);
    logger.info('recovery canceled', { ...logFieldsOf(stored), reason: endedBy });
    return;
  }
  const batch = await readExhaustedBatch(
    recovery.webhookEndpointId,
    endpoint.deliveryShards,
    recovery,
    stored.cursor,
    recoveryBatchSize,
    now,
  );
  const newest = await newestDeliveriesOfEvents(
    recovery.webhookEndpointId,
    batch.exhausted.map((delivery) => delivery.eventId),
  );
  const redeliveries = deliveriesToRecover(batch.exhausted, newest).map((delivery) =>
    recoveryRedeliveryOf(delivery, newId('whkdel'), createdAt, stored.url),
  );
  const next = afterBatch(
    stored,
    { exhaustedFound: batch.exhausted.length, redelivered: redeliveries.length, next: batch.next },
    createdAt,
  );
  const outcome = await commitRecoveryBatch(
    stored,
    next,
    redeliveries,
    endpoint.deliveryShards,
    lastSequence,
  );
  if (outcome === 'stale') {
    logger.info('recovery batch already written', { ...logFieldsOf(stored), step: stored.step });
    return;
  }
  logger.info('recovery batch', {
    ...logFieldsOf(stored),
    step: next.step,
    status: next.recovery.status,
    exhaustedFound: batch.exhausted.length,
    deliveryIds: redeliveries.map((delivery) => delivery.webhookDeliveryId),
  });
}

function logFieldsOf({ recovery }: StoredRecovery) {
  return {
    recoveryId: recovery.recoveryId,
    endpointId: recovery.webhookEndpointId,
    merchantId: recovery.merchantId,
  };
}
