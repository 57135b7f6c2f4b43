import { isoTimestamp } from '../domain/time';
import type { StoredRecovery } from '../domain/webhook-recovery';
import { type MailQueue, mailMessageOf, noticeMessageOf } from '../email/mail-message';
import { logger } from '../observability/logger';
import { nudgeRecovery, overdueWork } from '../store/webhook-recoveries';
import { deliveryLogFields } from './delivery-log-fields';
import { type DeliveryQueue, deliveryMessageOf } from './delivery-message';
import { PipelineMetricNames } from './pipeline-metric-names';
import { type PipelineMetrics, pipelineMetrics } from './pipeline-metrics';

/** A delivery this far past its due time has lost its message (stream or queue outage). */
export const overdueAfterSeconds = 120;
const batchSize = 100;

/**
 * The scheduled safety net: one read of the due index re-enqueues overdue deliveries, nudges stalled
 * recoveries and queues lost emails again
 * (docs/decisions/sharded-due-deliveries-index.md#the-reconcilers-run).
 */
export function createReconciler(deps: {
  queue: DeliveryQueue;
  /** Where emails whose message was lost are queued again (docs/emails.md). */
  mailQueue?: MailQueue;
  now?: () => Date;
  metrics?: PipelineMetrics;
}) {
  const now = deps.now ?? (() => new Date());
  const metrics = deps.metrics ?? pipelineMetrics();
  return async (): Promise<{ requeued: number }> => {
    const runAt = now();
    const dueBefore = isoTimestamp(new Date(runAt.getTime() - overdueAfterSeconds * 1000));
    try {
      const { deliveries: overdue, stalledRecoveries, emails } = await overdueWork(dueBefore, batchSize);
      metrics.count(PipelineMetricNames.overdueDeliveries, overdue.length);
      for (const { delivery, shard } of overdue) {
        await deps.queue.send(deliveryMessageOf(delivery, shard), 0);
        logger.info('overdue delivery re-enqueued', {
          ...deliveryLogFields(delivery),
          attempt: delivery.attemptCount + 1,
          dueBefore,
        });
      }
      const nudged = await nudgeStalledRecoveries(stalledRecoveries, runAt);
      // A queued email's mailer takes it once; a second message for it does nothing.
      const { mailQueue } = deps;
      for (const email of mailQueue === undefined ? [] : emails) {
        await mailQueue?.send('invoiceId' in email ? mailMessageOf(email) : noticeMessageOf(email));
        logger.info('queued email re-enqueued', {
          emailId: email.emailId,
          merchantId: email.merchantId,
          dueBefore,
        });
      }
      logger.info('reconciler run', {
        requeued: overdue.length,
        nudged,
        emailsRequeued: emails.length,
        dueBefore,
      });
      return { requeued: overdue.length };
    } finally {
      metrics.publish();
    }
  };
}

/**
 * Writes each stalled recovery's record again, so the router runs its batch again (a batch commits
 * only from the step it read, so running it twice is safe). One whose step moved since the read
 * was not stalled after all and is left alone. Returns how many were nudged.
 */
async function nudgeStalledRecoveries(stalled: readonly StoredRecovery[], runAt: Date): Promise<number> {
  let nudged = 0;
  for (const stored of stalled) {
    if (!(await nudgeRecovery(stored, isoTimestamp(runAt)))) continue;
    nudged += 1;
    const { recovery, step } = stored;
    logger.info('recovery nudged', {
      recoveryId: recovery.recoveryId,
      endpointId: recovery.webhookEndpointId,
      merchantId: recovery.merchantId,
      step,
    });
  }
  return nudged;
}
