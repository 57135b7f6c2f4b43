import { isoTimestamp } from '../domain/time';
import { logger } from '../http/logger';
import { overdueDeliveries } from '../store/webhook-deliveries';
import { deliveryLogFields } from './delivery-log-fields';
import { type DeliveryQueue, deliveryMessageOf } from './delivery-message';
import { PipelineMetricNames } from './pipeline-metric-names';
import { type PipelineMetrics, pipelineMetrics } from './pipeline-metrics';

/** A delivery this far past its due time has lost its message (stream or queue outage). */
export const overdueAfterSeconds = 120;
const batchSize = 100;

/**
 * The scheduled safety net (DESIGN §1): re-enqueues pending deliveries whose attempt is overdue.
 * A message that was only late, not lost, arrives twice; the dispatcher's conditional write records
 * one attempt either way. Each run reads every shard of the due-deliveries index and the legacy
 * partition: one Query each, at most 100 overdue deliveries each, the 100 oldest of all kept.
 * Every run writes OverdueDeliveries, 0 included, so the alarm on it always has data.
 */
export function createReconciler(deps: {
  queue: DeliveryQueue;
  now?: () => Date;
  metrics?: PipelineMetrics;
}) {
  const now = deps.now ?? (() => new Date());
  const metrics = deps.metrics ?? pipelineMetrics();
  return async (): Promise<{ requeued: number }> => {
    const dueBefore = isoTimestamp(new Date(now().getTime() - overdueAfterSeconds * 1000));
    try {
      const overdue = await overdueDeliveries(dueBefore, batchSize);
      metrics.count(PipelineMetricNames.overdueDeliveries, overdue.length);
      for (const { delivery, shard } of overdue) {
        await deps.queue.send(deliveryMessageOf(delivery, shard), 0);
        logger.info('overdue delivery re-enqueued', {
          ...deliveryLogFields(delivery),
          attempt: delivery.attemptCount + 1,
          dueBefore,
        });
      }
      logger.info('reconciler run', { requeued: overdue.length, dueBefore });
      return { requeued: overdue.length };
    } finally {
      metrics.publish();
    }
  };
}
