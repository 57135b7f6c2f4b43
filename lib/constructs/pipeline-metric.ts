import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { PipelineMetricNames } from '../../functions/delivery/pipeline-metric-names';

/** The values of the dimensions every pipeline metric carries (PipelineMetricNames.dimensions). */
export interface PipelineMetricDimensions {
  readonly service: string;
  readonly stage: string;
}

/**
 * One of the delivery pipeline's own metrics, with exactly the dimensions the dispatcher and the
 * reconciler write: an alarm or a graph on any other set would read a metric nothing emits.
 */
export function pipelineMetric(
  metricName: string,
  dimensions: PipelineMetricDimensions,
  options: Pick<cloudwatch.MetricProps, 'period' | 'statistic' | 'label'>,
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: PipelineMetricNames.namespace,
    metricName,
    dimensionsMap: {
      [PipelineMetricNames.dimensions.service]: dimensions.service,
      [PipelineMetricNames.dimensions.stage]: dimensions.stage,
    },
    ...options,
  });
}
