import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { ProcessorEventOutcome } from '../../domain/processor-event';
import { serviceMetrics } from '../../observability/service-metrics';
import { StripeEventMetricNames, stripeEventLateAfterSeconds } from './stripe-event-metric-names';

/** What Stripe's webhook records of each request, for production's alarms (docs/operations.md). */
export interface StripeEventMetrics {
  /** A request whose signature did not verify: one EMF line, `StripeSignatureFailures` 1. */
  recordSignatureRefused(): void;
  /**
   * A verified event once processed: one EMF line, `StripeSignatureFailures` 0, `StripeEventsLate`
   * 1 past the lateness limit and `StripeEventsUnknown` 1 for an unknown account or object (each 0
   * otherwise, so their sample count is the events processed).
   */
  recordProcessed(event: { readonly ageSeconds: number; readonly outcome: ProcessorEventOutcome }): void;
}

/** Seconds from the event's `created` (epoch seconds, Stripe's clock) to `now`. */
export function stripeEventAgeSeconds(event: { readonly created: number }, now: Date): number {
  return Math.floor(now.getTime() / 1000) - event.created;
}

/** Whether an event of that age is late (docs/operations.md, `stripe-events-late`). */
export function isLateStripeEvent(ageSeconds: number): boolean {
  return ageSeconds > stripeEventLateAfterSeconds;
}

/**
 * The webhook's metrics as Powertools writes them, in namespace `MerchantPayments` with the
 * dimensions {service, stage} the stack's alarms match exactly. Outside Lambda (the local runtime,
 * tests) nothing is written.
 */
export function stripeEventMetrics(environment: NodeJS.ProcessEnv = process.env): StripeEventMetrics {
  const metrics = serviceMetrics(environment);
  if (metrics === undefined) return unrecorded;
  return {
    recordSignatureRefused: () => {
      metrics.addMetric(StripeEventMetricNames.signatureFailures, MetricUnit.Count, 1);
      metrics.publishStoredMetrics();
    },
    recordProcessed: ({ ageSeconds, outcome }) => {
      const unknown =
        outcome === ProcessorEventOutcome.unknownAccount || outcome === ProcessorEventOutcome.unknownObject;
      metrics.addMetric(StripeEventMetricNames.signatureFailures, MetricUnit.Count, 0);
      metrics.addMetric(StripeEventMetricNames.late, MetricUnit.Count, isLateStripeEvent(ageSeconds) ? 1 : 0);
      metrics.addMetric(StripeEventMetricNames.unknown, MetricUnit.Count, unknown ? 1 : 0);
      metrics.publishStoredMetrics();
    },
  };
}

const unrecorded: StripeEventMetrics = {
  recordSignatureRefused: () => undefined,
  recordProcessed: () => undefined,
};
