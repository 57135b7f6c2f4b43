import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { PipelineMetricNames } from '../../functions/delivery/pipeline-metric-names';

/** The metrics counted from the API's access log, in the service's namespace with the dimension {stage}. */
export const AccessLogMetricNames = {
  /** Requests API Gateway answered 500 because the authorizer failed. */
  authorizerFailures: 'AuthorizerFailures',
  /** 5xx answers of the public pay routes, whoever gave them (the function or API Gateway). */
  payRouteServerErrors: 'PayRouteServerErrors',
} as const;

/**
 * API Gateway's `errorResponseType` when the authorizer itself failed: it crashed, timed out, was
 * throttled or answered something that is not a policy (AUTHORIZER_FAILURE), or API Gateway could
 * not call it (AUTHORIZER_CONFIGURATION_ERROR). A refused key is UNAUTHORIZED (401), and is why the
 * authorizer's own `Errors` metric cannot tell a failure: refusing a key means throwing.
 */
export const authorizerFailureTypes = ['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR'] as const;

export interface AccessLogMetricsProps {
  /** The stage's access log, one JSON line per request (`accessLogFormat` of payments-api.ts). */
  readonly accessLogs: logs.ILogGroup;
  /** The stage's name, as the access log's `stage` field holds it. */
  readonly stage: string;
  /** The resource paths of the public pay routes, exactly as API Gateway logs `resourcePath`. */
  readonly payRoutePaths: readonly string[];
}

/**
 * Two metric filters on the access log. They see what callers saw, which no function metric can:
 * API Gateway's own 5xx (a function that crashed, timed out or was throttled answers nothing) and
 * an authorizer failure, which its function's `Errors` cannot tell from a refused key.
 */
export class AccessLogMetrics extends Construct {
  /** Sum per 5 minutes. */
  readonly authorizerFailures: cloudwatch.Metric;
  /** Sum per 5 minutes. */
  readonly payRouteServerErrors: cloudwatch.Metric;

  constructor(scope: Construct, id: string, props: AccessLogMetricsProps) {
    super(scope, id);
    const { stage } = props;
    if (props.payRoutePaths.length === 0) throw new Error('The pay-route 5xx filter needs the pay routes');
    const count = (filterId: string, metricName: string, filterPattern: logs.IFilterPattern) =>
      new logs.MetricFilter(this, filterId, {
        logGroup: props.accessLogs,
        metricNamespace: PipelineMetricNames.namespace,
        metricName,
        filterPattern,
        metricValue: '1',
        unit: cloudwatch.Unit.COUNT,
        // Two stages can share an account; the dimension keeps their counts apart.
        dimensions: { [PipelineMetricNames.dimensions.stage]: '$.stage' },
      }).metric({
        dimensionsMap: { [PipelineMetricNames.dimensions.stage]: stage },
        statistic: cloudwatch.Stats.SUM,
        period: Duration.minutes(5),
      });

    this.authorizerFailures = count(
      'AuthorizerFailures',
      AccessLogMetricNames.authorizerFailures,
      logs.FilterPattern.any(
        ...authorizerFailureTypes.map((type) =>
          logs.FilterPattern.stringValue('$.errorResponseType', '=', type),
        ),
      ),
    );
    // `status` is logged as a string ("503"), so `5*` matches every 5xx. Exact paths: `/pay*` would
    // also match the merchants' `/payments` routes.
    this.payRouteServerErrors = count(
      'PayRouteServerErrors',
      AccessLogMetricNames.payRouteServerErrors,
      logs.FilterPattern.all(
        logs.FilterPattern.stringValue('$.status', '=', '5*'),
        logs.FilterPattern.any(
          ...props.payRoutePaths.map((path) => logs.FilterPattern.stringValue('$.resourcePath', '=', path)),
        ),
      ),
    );
  }
}
