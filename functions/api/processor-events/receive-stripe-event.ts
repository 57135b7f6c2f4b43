import type Stripe from 'stripe';
import { ProcessorEventOutcome as Outcome, type ProcessorEventOutcome } from '../../domain/processor-event';
import { httpHandler } from '../../http/http-handler';
import { logger } from '../../observability/logger';
import {
  isLateStripeEvent,
  type StripeEventMetrics,
  stripeEventAgeSeconds,
  stripeEventMetrics,
} from '../../payments/stripe/stripe-event-metrics';
import { StripeSignatureRefused, verifiedStripeEvent } from '../../payments/stripe/stripe-event-signature';
import { stripePlatform } from '../../payments/stripe/stripe-platform';
import { applyStripeEvent } from './apply-stripe-event';
import { processorEventRoutes } from './routes';

/**
 * Stripe's Connect webhook. The signature is checked on the raw body first (400, nothing read or
 * written, when it fails); then the event is recorded once by its id and applied, in one transaction.
 * Every verified event is answered 200 at once, a repeat, a stale or an unknown one too, so Stripe
 * never retries what a retry cannot change (docs/decisions/stripe-events-in.md). Each refused
 * signature, late event and unknown account or object is counted for production's alarms
 * (docs/operations.md).
 */
export const handler = httpHandler(
  processorEventRoutes.receiveStripeEvent,
  async ({ raw, now, requestId }) => {
    const platform = await stripePlatform();
    const metrics = stripeEventMetrics();
    const event = countedVerification(metrics, () =>
      verifiedStripeEvent(platform, raw.body, raw.header('stripe-signature'), now),
    );
    const outcome: ProcessorEventOutcome = await applyStripeEvent(event, { now, requestId });
    const ageSeconds = stripeEventAgeSeconds(event, now);
    metrics.recordProcessed({ ageSeconds, outcome });
    const about = {
      requestId,
      stripeEventId: event.id,
      stripeEventType: event.type,
      ...(event.account == null ? {} : { stripeAccountId: event.account }),
    };
    if (outcome === Outcome.unknownAccount || outcome === Outcome.unknownObject) {
      logger.warn(`stripe event for an ${outcome.replace('_', ' ')}`, about);
    }
    if (isLateStripeEvent(ageSeconds))
      logger.warn('stripe event processed late', { ...about, ageSeconds, outcome });
    return { status: 200, body: { received: true, eventId: event.id, outcome } };
  },
);

/** The verified event; a refused signature is counted, then answered 400 as before. */
function countedVerification(metrics: StripeEventMetrics, verify: () => Stripe.Event): Stripe.Event {
  try {
    return verify();
  } catch (error) {
    if (error instanceof StripeSignatureRefused) metrics.recordSignatureRefused();
    throw error;
  }
}
