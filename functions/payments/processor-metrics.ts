import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { serviceMetrics } from '../observability/service-metrics';
import { ProcessorMetricNames } from './processor-metric-names';

/** What a route records of its calls to the payment processor. */
export interface ProcessorMetrics {
  /** Writes one EMF line at once: a call, and whether it failed to get an answer (0 or 1). */
  recordCall(outcome: 'answered' | 'failed'): void;
}

/**
 * The processor calls' metrics as Powertools writes them: one EMF line per call on stdout, in
 * namespace `MerchantPayments` with the dimensions {service, stage} the stack's alarm matches
 * exactly. `ProcessorErrors` is written as 0 for an answered call, so the graph shows calls and
 * failures side by side. Outside Lambda (the local runtime, tests) nothing is written.
 */
export function processorMetrics(environment: NodeJS.ProcessEnv = process.env): ProcessorMetrics {
  const metrics = serviceMetrics(environment);
  if (metrics === undefined) return unrecorded;
  return {
    recordCall: (outcome) => {
      metrics.addMetric(ProcessorMetricNames.calls, MetricUnit.Count, 1);
      metrics.addMetric(ProcessorMetricNames.errors, MetricUnit.Count, outcome === 'failed' ? 1 : 0);
      metrics.publishStoredMetrics();
    },
  };
}

const unrecorded: ProcessorMetrics = { recordCall: () => undefined };

/**
 * Runs one call to the processor, counted as answered or failed for the processor-errors alarm
 * (docs/operations.md); `callProcessor` runs each reserved call through it.
 */
export async function measuredProcessorCall<T>(
  call: () => Promise<T>,
  metrics: ProcessorMetrics = processorMetrics(),
): Promise<T> {
  let answer: T;
  try {
    answer = await call();
  } catch (error) {
    metrics.recordCall('failed');
    throw error;
  }
  metrics.recordCall('answered');
  return answer;
}
