import { describe, expect, it } from 'vitest';
import { ProcessorEventOutcome } from '../../../functions/domain/processor-event';
import {
  StripeEventMetricNames,
  stripeEventLateAfterSeconds,
} from '../../../functions/payments/stripe/stripe-event-metric-names';
import {
  isLateStripeEvent,
  stripeEventAgeSeconds,
  stripeEventMetrics,
} from '../../../functions/payments/stripe/stripe-event-metrics';
import { emfLine, lambdaEnvironment } from '../../support/emf';
import { printedJsonLinesDuring } from '../../support/printed-json-lines';

const lambda = lambdaEnvironment('MerchantPayments-production-receiveStripeEvent', 'production');

const processedMetrics = [
  { Name: StripeEventMetricNames.signatureFailures, Unit: 'Count' },
  { Name: StripeEventMetricNames.late, Unit: 'Count' },
  { Name: StripeEventMetricNames.unknown, Unit: 'Count' },
];

describe('stripeEventMetrics', () => {
  it('writes a refused signature as one EMF line: namespace MerchantPayments, dimensions exactly {service, stage}', async () => {
    const metrics = stripeEventMetrics(lambda);
    const lines = await printedJsonLinesDuring(async () => metrics.recordSignatureRefused());
    expect(lines).toEqual([
      emfLine('production', [{ Name: 'StripeSignatureFailures', Unit: 'Count' }], {
        StripeSignatureFailures: 1,
      }),
    ]);
  });

  it('writes each processed event as one line: late past 15 minutes, unknown for an unknown account or object', async () => {
    const metrics = stripeEventMetrics(lambda);
    const lines = await printedJsonLinesDuring(async () => {
      metrics.recordProcessed({ ageSeconds: 2, outcome: ProcessorEventOutcome.applied });
      metrics.recordProcessed({ ageSeconds: 15 * 60, outcome: ProcessorEventOutcome.duplicate });
      metrics.recordProcessed({ ageSeconds: 15 * 60 + 1, outcome: ProcessorEventOutcome.recorded });
      metrics.recordProcessed({ ageSeconds: 3 * 86_400, outcome: ProcessorEventOutcome.unknownAccount });
      metrics.recordProcessed({ ageSeconds: 0, outcome: ProcessorEventOutcome.unknownObject });
      metrics.recordProcessed({ ageSeconds: 0, outcome: ProcessorEventOutcome.stale });
    });
    const line = (late: number, unknown: number) =>
      emfLine('production', processedMetrics, {
        StripeSignatureFailures: 0,
        StripeEventsLate: late,
        StripeEventsUnknown: unknown,
      });
    expect(lines).toEqual([line(0, 0), line(0, 0), line(1, 0), line(1, 1), line(0, 1), line(0, 0)]);
  });

  it('writes nothing outside Lambda (the local runtime, tests)', async () => {
    const metrics = stripeEventMetrics({ STAGE: 'production' });
    const lines = await printedJsonLinesDuring(async () => {
      metrics.recordSignatureRefused();
      metrics.recordProcessed({ ageSeconds: 3600, outcome: ProcessorEventOutcome.unknownAccount });
    });
    expect(lines).toEqual([]);
  });

  it('ages an event from its created second to now, late only past 15 minutes', () => {
    const now = new Date('2026-12-01T12:00:00.900Z');
    const created = Math.floor(now.getTime() / 1000);
    expect(stripeEventAgeSeconds({ created }, now)).toBe(0);
    expect(stripeEventAgeSeconds({ created: created - 901 }, now)).toBe(901);
    // Stripe's clock a little ahead of Lambda's: a negative age, never late.
    expect(stripeEventAgeSeconds({ created: created + 2 }, now)).toBe(-2);
    expect(stripeEventLateAfterSeconds).toBe(900);
    expect(isLateStripeEvent(900)).toBe(false);
    expect(isLateStripeEvent(901)).toBe(true);
    expect(isLateStripeEvent(-2)).toBe(false);
  });
});
