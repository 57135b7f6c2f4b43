import { RecoveryLimit } from '../../domain/endpoint-quotas';
import { newId } from '../../domain/ids';
import { secondsUntil } from '../../domain/pay-link-declines';
import { isoTimestamp } from '../../domain/time';
import { WebhookEndpointStatus } from '../../domain/webhook-endpoint';
import { newRecovery, recoveryWindow, type StoredRecovery } from '../../domain/webhook-recovery';
import {
  EndpointUnhealthyError,
  InvalidStateError,
  RateLimitedError,
  ValidationError,
} from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import {
  commitWithIdempotency,
  type IdempotencyContext,
  refuseUnlessReplayed,
} from '../../store/idempotency';
import { TransactionConditionFailed } from '../../store/transaction';
import { QuotaAttribute } from '../../store/webhook-destinations';
import {
  buildStartRecovery,
  getEndpointWithRecoveryLock,
  runningRecoveryIdOf,
} from '../../store/webhook-recoveries';
import { withinDestinationQuota } from '../webhooks/destination-quota';
import { liveOrNotFound } from '../webhooks/endpoint-change';
import { webhookRecoveryRoutes } from './routes';
import { unansweredNow } from './unanswered-now';

/** Starts a recovery of the endpoint's exhausted deliveries in a window (docs/decisions/bulk-recovery.md). */
export const handler = httpHandler(
  webhookRecoveryRoutes.recoverWebhookDeliveries,
  async ({ params, body, idempotency, now }) => {
    const window = recoveryWindow(body, now);
    if ('path' in window) throw new ValidationError([{ path: window.path, message: window.message }]);
    const { endpoint, runningRecoveryId } = await getEndpointWithRecoveryLock(
      params.merchantId,
      params.webhookEndpointId,
    );
    const found = liveOrNotFound(endpoint);
    if (found.endpoint.status === WebhookEndpointStatus.disabled)
      throw new InvalidStateError('The webhook endpoint is disabled; enable it to recover its deliveries.');
    if (runningRecoveryId !== undefined) throw runningError(runningRecoveryId);
    const gate = await unansweredNow(found, now);
    if (gate.reason !== undefined) return refuseUnlessReplayed(idempotency, unansweredError(gate.reason));
    const live = gate.stored.endpoint;
    const stored = newRecovery({
      recoveryId: newId('whkrec'),
      webhookEndpointId: live.webhookEndpointId,
      merchantId: live.merchantId,
      url: live.url,
      ...window,
      now: isoTimestamp(now),
    });
    return startWithinQuota(idempotency, stored, now);
  },
);

/**
 * Commits the start (record, lock, the destination's recovery history), or answers 429 when the
 * history as read or as a lost condition hands it back holds the quota's worth of recent starts.
 */
function startWithinQuota(idempotency: IdempotencyContext, stored: StoredRecovery, now: Date) {
  return withinDestinationQuota({
    merchantId: stored.recovery.merchantId,
    url: stored.url,
    attribute: QuotaAttribute.recoveries,
    limit: RecoveryLimit,
    now,
    commit: async (use) => {
      try {
        return await commitWithIdempotency(idempotency, { status: 201, body: stored.recovery }, [
          ...buildStartRecovery(stored),
          use,
        ]);
      } catch (error) {
        // Action 1, the lock: another start won the race, and its recovery runs.
        const failed = error instanceof TransactionConditionFailed ? error : undefined;
        const running = runningRecoveryIdOf(failed?.failureAt(1)?.existing);
        throw running === undefined ? error : runningError(running);
      }
    },
    // After the record's and the lock's puts.
    useIndex: 2,
    refuse: (until) => refuseUnlessReplayed(idempotency, recoveryQuotaError(until, now)),
    maxRounds: 3,
  });
}

function recoveryQuotaError(until: Date, now: Date): RateLimitedError {
  return new RateLimitedError(
    `This webhook endpoint's url has had ${RecoveryLimit.cap} recoveries started within the last hour, its most; ` +
      'try again later.',
    secondsUntil(until, now),
  );
}

function unansweredError(reason: string): EndpointUnhealthyError {
  return new EndpointUnhealthyError(
    `The webhook endpoint has not shown within the last hour that it answers: ${reason}. ` +
      'Send a test delivery (POST …/test) and fix the endpoint until it succeeds; then recover.',
  );
}

function runningError(recoveryId: string): InvalidStateError {
  return new InvalidStateError(
    `Recovery ${recoveryId} of this webhook endpoint is still running; one runs at a time.`,
  );
}
