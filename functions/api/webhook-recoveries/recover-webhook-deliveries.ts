import { unansweredReason } from '../../domain/endpoint-health';
import { newId } from '../../domain/ids';
import { isoTimestamp } from '../../domain/time';
import { WebhookEndpointStatus } from '../../domain/webhook-endpoint';
import { newRecovery, recoveryWindow } from '../../domain/webhook-recovery';
import { EndpointUnhealthyError, InvalidStateError, ValidationError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { commitWithIdempotency, refuseUnlessReplayed } from '../../store/idempotency';
import { TransactionConditionFailed } from '../../store/transaction';
import {
  buildStartRecovery,
  getEndpointWithRecoveryLock,
  runningRecoveryIdOf,
} from '../../store/webhook-recoveries';
import { liveOrNotFound } from '../webhooks/endpoint-change';
import { webhookRecoveryRoutes } from './routes';

/**
 * 201 with a running recovery of the endpoint's exhausted deliveries in the window; the router
 * carries it out in batches (DESIGN §7 "Bulk recovery"). One runs per endpoint at a time: another
 * start is 409 naming it, as is a disabled endpoint, to which nothing would be sent. An endpoint
 * that has not shown within the hour that it answers is 409 `endpoint_unhealthy`, so a recovery
 * never multiplies requests to a URL that refuses them (docs/decisions.md "Recovery needs an
 * endpoint that answers"). Endpoint and lock are read together, and the start's condition on the
 * lock settles a race between two.
 */
export const handler = httpHandler(
  webhookRecoveryRoutes.recoverWebhookDeliveries,
  async ({ params, body, idempotency, now }) => {
    const window = recoveryWindow(body, now);
    if ('path' in window) throw new ValidationError([{ path: window.path, message: window.message }]);
    const { endpoint, runningRecoveryId } = await getEndpointWithRecoveryLock(
      params.merchantId,
      params.webhookEndpointId,
    );
    const { endpoint: live } = liveOrNotFound(endpoint);
    if (live.status === WebhookEndpointStatus.disabled)
      throw new InvalidStateError('The webhook endpoint is disabled; enable it to recover its deliveries.');
    if (runningRecoveryId !== undefined) throw runningError(runningRecoveryId);
    const unanswered = unansweredReason(live, now);
    if (unanswered !== undefined) return refuseUnlessReplayed(idempotency, unansweredError(unanswered));
    const stored = newRecovery({
      recoveryId: newId('whkrec'),
      webhookEndpointId: live.webhookEndpointId,
      merchantId: live.merchantId,
      ...window,
      now: isoTimestamp(now),
    });
    try {
      return await commitWithIdempotency(idempotency, { status: 201, body: stored.recovery }, [
        ...buildStartRecovery(stored),
      ]);
    } catch (error) {
      const lock = error instanceof TransactionConditionFailed ? error.failureAt(1) : undefined;
      const running = runningRecoveryIdOf(lock?.existing);
      if (running !== undefined) throw runningError(running);
      throw error;
    }
  },
);

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
