import { Metrics } from '@aws-lambda-powertools/metrics';
import { PipelineMetricNames } from '../delivery/pipeline-metric-names';

/**
 * Powertools Metrics as every function writes them: EMF lines on stdout in namespace
 * `MerchantPayments` with the dimensions {service, stage} the stack's alarms match exactly.
 * Undefined outside Lambda (the local runtime, tests), where no CloudWatch reads those lines.
 */
export function serviceMetrics(environment: NodeJS.ProcessEnv = process.env): Metrics | undefined {
  if (environment.AWS_LAMBDA_FUNCTION_NAME === undefined) return undefined;
  const stage = environment.STAGE;
  if (stage === undefined) throw new Error('STAGE is not set');
  return new Metrics({
    namespace: PipelineMetricNames.namespace,
    serviceName: environment.POWERTOOLS_SERVICE_NAME ?? 'merchant-payments',
    defaultDimensions: { [PipelineMetricNames.dimensions.stage]: stage },
  });
}
