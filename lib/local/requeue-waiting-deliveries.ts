import { type DeliveryMessage, deliveryMessageOf } from '../../functions/delivery/delivery-message';
import { type WaitingDelivery, waitingDeliveries } from '../../functions/store/webhook-deliveries';
import { MaxDelaySeconds } from './delay-queue';

/**
 * Whole seconds until a waiting delivery's next attempt, for a runtime that starts now: its stored
 * due time, but no later than this runtime's retry delay after its last attempt ended (as the
 * dispatcher counts), so a restart with a shorter WEBHOOK_RETRY_DELAY_SECONDS applies to the
 * retries already waiting. 0 when the attempt is due or overdue. An attempt that was in flight when
 * the last runtime was killed still holds its lease: its message waits until a second after the
 * lease ends, or the dispatcher would drop it as taken and only the reconciler would send it, minutes
 * later.
 */
export function restartDelaySeconds(
  waiting: Pick<WaitingDelivery, 'delivery' | 'dueAt' | 'leaseUntil'>,
  now: Date,
  retryDelaySeconds: number,
): number {
  let dueMs = Date.parse(waiting.dueAt);
  const lastAttempt = waiting.delivery.attempts.at(-1);
  if (lastAttempt !== undefined) {
    const retryDueMs =
      Date.parse(lastAttempt.attemptedAt) + lastAttempt.durationMs + retryDelaySeconds * 1000;
    dueMs = Math.min(dueMs, retryDueMs);
  }
  if (waiting.leaseUntil !== undefined) dueMs = Math.max(dueMs, Date.parse(waiting.leaseUntil) + 1000);
  const seconds = Math.ceil((dueMs - now.getTime()) / 1000);
  return Number.isFinite(seconds) ? Math.min(MaxDelaySeconds, Math.max(0, seconds)) : 0;
}

/**
 * Gives every waiting delivery its queue message back when a local runtime starts: the in-process
 * delay queue lost its messages when the last runtime stopped, and the scheduled reconciler would
 * notice only minutes after each was due. Overdue ones go at once; the others when they are due.
 */
export async function requeueWaitingDeliveries(deps: {
  send: (message: DeliveryMessage, delaySeconds: number) => void;
  retryDelaySeconds: number;
  now?: () => Date;
}): Promise<{ due: number; later: number }> {
  const now = (deps.now ?? (() => new Date()))();
  const counts = { due: 0, later: 0 };
  for (const waiting of await waitingDeliveries()) {
    const delaySeconds = restartDelaySeconds(waiting, now, deps.retryDelaySeconds);
    deps.send(deliveryMessageOf(waiting.delivery, waiting.shard), delaySeconds);
    if (delaySeconds === 0) counts.due += 1;
    else counts.later += 1;
  }
  return counts;
}
