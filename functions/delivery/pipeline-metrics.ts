import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { serviceMetrics } from '../observability/service-metrics';
import { PipelineMetricNames } from './pipeline-metric-names';

type Names = typeof PipelineMetricNames;
/** Every pipeline metric that counts something (all but the lag). */
export type PipelineCount = Names[Exclude<keyof Names, 'namespace' | 'dimensions' | 'firstAttemptLag'>];

/** What the dispatcher and the reconciler record in one invocation. */
export interface PipelineMetrics {
  /** Adds `value` to a count of this invocation; a count added as 0 is still written. */
  count(name: PipelineCount, value?: number): void;
  /** One delivery's time from its event to the start of its first attempt. */
  firstAttemptLag(milliseconds: number): void;
  /** Writes this invocation's metrics as one EMF line (none if nothing was recorded) and forgets them. */
  publish(): void;
}

/**
 * The pipeline's metrics as Powertools writes them: EMF lines on stdout, which CloudWatch turns into
 * metrics without an API call, in namespace `MerchantPayments` with the dimensions {service, stage}
 * that the stack's alarms match exactly. Outside Lambda (the local runtime, tests) nothing is
 * written: no CloudWatch reads those lines there, and a line per batch would drown the console.
 */
export function pipelineMetrics(environment: NodeJS.ProcessEnv = process.env): PipelineMetrics {
  const metrics = serviceMetrics(environment);
  if (metrics === undefined) return unrecorded;
  // Counts are summed here so an invocation writes one value per count, however many messages it had.
  const counts = new Map<PipelineCount, number>();
  let lags = 0;
  return {
    count: (name, value = 1) => {
      counts.set(name, (counts.get(name) ?? 0) + value);
    },
    firstAttemptLag: (milliseconds) => {
      metrics.addMetric(PipelineMetricNames.firstAttemptLag, MetricUnit.Milliseconds, milliseconds);
      lags += 1;
    },
    publish: () => {
      if (counts.size === 0 && lags === 0) return;
      for (const [name, value] of counts) metrics.addMetric(name, MetricUnit.Count, value);
      counts.clear();
      lags = 0;
      metrics.publishStoredMetrics();
    },
  };
}

const unrecorded: PipelineMetrics = {
  count: () => undefined,
  firstAttemptLag: () => undefined,
  publish: () => undefined,
};
