import { isoTimestamp } from '../domain/time';
import { logger } from '../http/logger';
import { overdueDeliveries } from '../store/webhook-deliveries';
import { type DeliveryQueue, deliveryMessageOf } from './delivery-message';

/** A delivery this far past its due time has lost its message (stream or queue outage). */
export const overdueAfterSeconds = 120;
const batchSize = 100;

/**
 * The scheduled safety net (DESIGN §1): re-enqueues pending deliveries whose attempt is overdue.
 * A message that was only late, not lost, arrives twice; the dispatcher's conditional write records
 * one attempt either way. Each run reads every shard of the due-deliveries index and the legacy
 * partition: one Query each, at most 100 overdue deliveries each, the 100 oldest of all kept.
 */
export function createReconciler(deps: { queue: DeliveryQueue; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return async (): Promise<{ requeued: number }> => {
    const dueBefore = isoTimestamp(new Date(now().getTime() - overdueAfterSeconds * 1000));
    const overdue = await overdueDeliveries(dueBefore, batchSize);
    for (const { delivery, shard } of overdue) {
      await deps.queue.send(deliveryMessageOf(delivery, shard), 0);
    }
    if (overdue.length > 0) logger.warn('overdue deliveries re-enqueued', { count: overdue.length });
    return { requeued: overdue.length };
  };
}
