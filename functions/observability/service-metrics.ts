import { Metrics } from '@aws-lambda-powertools/metrics';

/**
 * Where every metric of the service lives: one CloudWatch namespace, and the dimensions
 * {service, stage} (the Powertools service name and the stage) that the stack's alarms match exactly.
 */
export const ServiceMetricNames = {
  namespace: 'MerchantPayments',
  dimensions: { service: 'service', stage: 'stage' },
} as const;

/**
 * Powertools Metrics as every function writes them: EMF lines on stdout in the service's namespace
 * with its dimensions. Undefined outside Lambda (the local runtime, tests), where no CloudWatch
 * reads those lines.
 */
export function serviceMetrics(environment: NodeJS.ProcessEnv = process.env): Metrics | undefined {
  if (environment.AWS_LAMBDA_FUNCTION_NAME === undefined) return undefined;
  const stage = environment.STAGE;
  if (stage === undefined) throw new Error('STAGE is not set');
  return new Metrics({
    namespace: ServiceMetricNames.namespace,
    serviceName: environment.POWERTOOLS_SERVICE_NAME ?? 'merchant-payments',
    defaultDimensions: { [ServiceMetricNames.dimensions.stage]: stage },
  });
}
