import { type DeliveryMessage, deliveryMessageOf } from '../../functions/delivery/delivery-message';
import { type WaitingDelivery, waitingDeliveries } from '../../functions/store/webhook-deliveries';
import { MaxDelaySeconds } from './delay-queue';

/**
 * Whole seconds (0: due) until a waiting delivery's next attempt after a restart: its due time, but
 * no later than this runtime's retry delay after its last attempt, so a shorter
 * WEBHOOK_RETRY_DELAY_SECONDS applies to waiting retries; and not before a second after a lease
 * held by a killed runtime ends, which the dispatcher would otherwise drop as taken.
 */
export function restartDelaySeconds(
  waiting: Pick<WaitingDelivery, 'delivery' | 'dueAt' | 'leaseUntil'>,
  now: Date,
  retryDelaySeconds: number,
): number {
  const last = waiting.delivery.attempts.at(-1);
  const retryDueMs = last && Date.parse(last.attemptedAt) + last.durationMs + retryDelaySeconds * 1000;
  let dueMs = Math.min(Date.parse(waiting.dueAt), retryDueMs ?? Infinity);
  if (waiting.leaseUntil !== undefined) dueMs = Math.max(dueMs, Date.parse(waiting.leaseUntil) + 1000);
  const seconds = Math.ceil((dueMs - now.getTime()) / 1000);
  return Number.isFinite(seconds) ? Math.min(MaxDelaySeconds, Math.max(0, seconds)) : 0;
}

/**
 * Gives every waiting delivery its queue message back at start: the in-process queue lost them with
 * the last runtime, and the reconciler would notice only minutes after each was due.
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
