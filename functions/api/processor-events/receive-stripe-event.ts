import { ProcessorEventOutcome as Outcome, type ProcessorEventOutcome } from '../../domain/processor-event';
import { httpHandler } from '../../http/http-handler';
import { logger } from '../../observability/logger';
import { verifiedStripeEvent } from '../../payments/stripe/stripe-event-signature';
import { stripePlatform } from '../../payments/stripe/stripe-platform';
import { applyStripeEvent } from './apply-stripe-event';
import { processorEventRoutes } from './routes';

/**
 * Stripe's Connect webhook. The signature is checked on the raw body first (400, nothing read or
 * written, when it fails); then the event is recorded once by its id and applied, in one transaction.
 * Every verified event is answered 200 at once, a repeat, a stale or an unknown one too, so Stripe
 * never retries what a retry cannot change (docs/decisions/stripe-events-in.md).
 */
export const handler = httpHandler(
  processorEventRoutes.receiveStripeEvent,
  async ({ raw, now, requestId }) => {
    const platform = await stripePlatform();
    const event = verifiedStripeEvent(platform, raw.body, raw.header('stripe-signature'), now);
    const outcome: ProcessorEventOutcome = await applyStripeEvent(event, { now, requestId });
    if (outcome === Outcome.unknownAccount || outcome === Outcome.unknownObject) {
      logger.warn(`stripe event for an ${outcome.replace('_', ' ')}`, {
        requestId,
        stripeEventId: event.id,
        stripeEventType: event.type,
        ...(event.account == null ? {} : { stripeAccountId: event.account }),
      });
    }
    return { status: 200, body: { received: true, eventId: event.id, outcome } };
  },
);
