/**
 * The CloudWatch metrics of Stripe's webhook (`POST /processors/stripe/events`), written as EMF lines
 * by its route and read by production's alarms (docs/operations.md). They share the service's
 * namespace and dimensions {service, stage} (`ServiceMetricNames`), as the processor calls' do.
 */
export const StripeEventMetricNames = {
  /** One per request whose `Stripe-Signature` did not verify (missing, wrong secret, too old); 0 for a verified one. */
  signatureFailures: 'StripeSignatureFailures',
  /** A verified event processed more than `stripeEventLateAfterSeconds` after Stripe created it; 0 otherwise. */
  late: 'StripeEventsLate',
  /** A verified event recorded `unknown_account` or `unknown_object`; 0 otherwise. */
  unknown: 'StripeEventsUnknown',
} as const;

/**
 * Past this age (now minus the event's `created`) an event is late: Stripe delivers within seconds,
 * so 15 minutes means its first attempts failed, Stripe is backed up, or the event is a replay.
 */
export const stripeEventLateAfterSeconds = 15 * 60;
