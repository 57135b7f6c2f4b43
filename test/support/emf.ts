import { expect } from 'vitest';

/** The environment Lambda gives the function `functionName` of `stage`: metrics are written only there. */
export function lambdaEnvironment(functionName: string, stage: 'sandbox' | 'production') {
  return {
    AWS_LAMBDA_FUNCTION_NAME: functionName,
    POWERTOOLS_SERVICE_NAME: 'merchant-payments',
    STAGE: stage,
  };
}

/**
 * One EMF line as the alarms read it: namespace MerchantPayments, dimensions exactly {service,
 * stage}, the `metrics` declared in that order and `values` by metric name.
 */
export function emfLine(
  stage: string,
  metrics: { Name: string; Unit: string }[],
  values: Record<string, number>,
): Record<string, unknown> {
  return {
    _aws: {
      Timestamp: expect.any(Number),
      CloudWatchMetrics: [
        { Namespace: 'MerchantPayments', Dimensions: [['service', 'stage']], Metrics: metrics },
      ],
    },
    service: 'merchant-payments',
    stage,
    ...values,
  };
}
