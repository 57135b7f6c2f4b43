import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ProcessorMetricNames } from '../../functions/payments/processor-metric-names';
import { StripeEventMetricNames } from '../../functions/payments/stripe/stripe-event-metric-names';
import { AccessLogMetrics } from './access-log-metrics';
import { type PipelineMetricDimensions, pipelineMetric } from './pipeline-metric';
import type { AlarmThresholds, StripeEventThresholds } from './stage-settings';

/** The operations the service sends to the table, for the per-operation throttle and error metrics. */
export const tableOperations = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.BATCH_WRITE_ITEM,
  dynamodb.Operation.TRANSACT_WRITE_ITEMS,
] as const;

/** CloudWatch's hard limit of metrics in one alarm's math expression. */
const maxMetricsPerAlarm = 10;

/** The account's concurrency is judged minute by minute: 3 minutes of 5 near the quota. */
export const concurrencyEvaluation = {
  period: Duration.minutes(1),
  datapointsToAlarm: 3,
  evaluationPeriods: 5,
};

export interface ServiceAlarmsProps {
  /** Prefix of the alarm names (the stack name). */
  readonly namePrefix: string;
  /** The stage's name: the dimension of the metrics counted from the access log. */
  readonly stage: string;
  readonly restApi: apigateway.RestApi;
  /** The API's access log, where authorizer failures and pay-route 5xx are counted. */
  readonly accessLogs: logs.ILogGroup;
  /** The resource paths of the public pay routes. */
  readonly payRoutePaths: readonly string[];
  /**
   * The functions whose throttling locks every merchant out, turns payers away or holds events
   * back (the authorizer, the pay routes, the pipeline), by the label the dashboard gives each.
   */
  readonly criticalFunctions: ReadonlyMap<string, lambda.IFunction>;
  /** The stage's web ACL; its visibility metric name is the `WebACL` dimension of WAF's metrics. */
  readonly webAcl: wafv2.CfnWebACL;
  readonly table: dynamodb.Table;
  readonly thresholds: AlarmThresholds;
  /** The dimensions the processor calls' metrics carry (PipelineMetricNames.dimensions). */
  readonly metricDimensions: PipelineMetricDimensions;
}

/** The metrics behind the alarms below, for the dashboard to graph the same numbers. */
export interface ServiceSignals {
  readonly authorizerFailures: cloudwatch.IMetric;
  readonly payRouteServerErrors: cloudwatch.IMetric;
  readonly processorCalls: cloudwatch.IMetric;
  readonly processorErrors: cloudwatch.IMetric;
  /** Each critical function's throttles, labelled. */
  readonly criticalFunctionThrottles: readonly cloudwatch.IMetric[];
  readonly accountConcurrentExecutions: cloudwatch.IMetric;
  readonly webAclBlockedRequests: cloudwatch.IMetric;
  readonly webAclAllowedRequests: cloudwatch.IMetric;
  /** Stripe's webhook, in a stage that alarms on it. */
  readonly stripeEvents?: StripeEventSignals;
}

/** What Stripe's webhook counts, per 5 minutes, labelled for the dashboard. */
export interface StripeEventSignals {
  readonly signatureFailures: cloudwatch.IMetric;
  readonly late: cloudwatch.IMetric;
  readonly unknown: cloudwatch.IMetric;
  /** The events verified and processed: the sample count of the late count, written 0 or 1 for each. */
  readonly processed: cloudwatch.IMetric;
}

/** The production-only alarms on Stripe's webhook. */
export interface StripeEventAlarms {
  readonly signatureFailures: cloudwatch.Alarm;
  readonly late: cloudwatch.Alarm;
  readonly unknown: cloudwatch.Alarm;
}

const fiveMinutes = Duration.minutes(5);

/** A count over 5 minutes at or above its threshold, one period; no datapoint is healthy. */
const countAlarmProps = (threshold: number) => ({
  threshold,
  comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
  evaluationPeriods: 1,
  treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
});

/**
 * The alarms on what merchants and payers see of the stage (the API's 5xx rate and p99 latency,
 * authorizer failures, the pay routes' 5xx, processor errors, WAF blocks), on the Lambda capacity
 * under them (throttles of the critical functions, the account's concurrency), on the table under
 * everything (throttled requests, DynamoDB's own errors) and, where the stage has Stripe's webhook,
 * on its refused signatures, late events and unknown accounts or objects. The pipeline's alarms live with
 * the pipeline. docs/operations.md has each one's runbook.
 */
export class ServiceAlarms extends Construct {
  readonly api5xxRate: cloudwatch.Alarm;
  readonly apiLatencyP99: cloudwatch.Alarm;
  readonly tableThrottles: cloudwatch.Alarm;
  readonly tableSystemErrors: cloudwatch.Alarm;
  readonly authorizerFailures: cloudwatch.Alarm;
  readonly payRouteServerErrors: cloudwatch.Alarm;
  readonly processorErrors: cloudwatch.Alarm;
  readonly criticalFunctionThrottles: cloudwatch.Alarm;
  readonly accountConcurrency: cloudwatch.Alarm;
  readonly webAclBlockedRequests: cloudwatch.Alarm;
  /** Undefined in a stage without Stripe's webhook (the sandbox). */
  readonly stripeEvents: StripeEventAlarms | undefined;
  readonly signals: ServiceSignals;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const { namePrefix, thresholds } = props;
    const alarm = (
      alarmId: string,
      nameSuffix: string,
      alarmProps: Omit<cloudwatch.AlarmProps, 'alarmName'>,
    ) => new cloudwatch.Alarm(this, alarmId, { ...alarmProps, alarmName: `${namePrefix}-${nameSuffix}` });

    [this.api5xxRate, this.apiLatencyP99] = this.apiAlarms(props.restApi, thresholds, alarm);
    [this.tableThrottles, this.tableSystemErrors] = this.tableAlarms(props.table, thresholds, alarm);

    const accessLog = new AccessLogMetrics(this, 'AccessLogMetrics', {
      accessLogs: props.accessLogs,
      stage: props.stage,
      payRoutePaths: props.payRoutePaths,
    });
    const processor = (metricName: string) =>
      pipelineMetric(metricName, props.metricDimensions, {
        period: fiveMinutes,
        statistic: cloudwatch.Stats.SUM,
      });
    const processorErrors = processor(ProcessorMetricNames.errors);
    const throttles = [...props.criticalFunctions].map(([label, fn]) =>
      fn.metricThrottles({ period: fiveMinutes, statistic: cloudwatch.Stats.SUM, label }),
    );
    const concurrency = lambda.Function.metricAllConcurrentExecutions({
      period: concurrencyEvaluation.period,
      statistic: cloudwatch.Stats.MAXIMUM,
    });
    const webAcl = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/WAFV2',
        metricName,
        // Rule ALL: every rule of the web ACL, whichever blocked.
        dimensionsMap: { WebACL: webAclMetricName(props.webAcl), Region: Stack.of(this).region, Rule: 'ALL' },
        period: fiveMinutes,
        statistic: cloudwatch.Stats.SUM,
      });
    const webAclBlocked = webAcl('BlockedRequests');
    const stripeEvents =
      thresholds.stripeEvents === undefined
        ? undefined
        : this.stripeEventAlarms(thresholds.stripeEvents, processor, alarm);
    this.stripeEvents = stripeEvents?.alarms;
    // The dashboard's copies carry labels; the alarms' do not, so each alarm reads one plain metric.
    this.signals = {
      ...(stripeEvents === undefined ? {} : { stripeEvents: stripeEvents.signals }),
      authorizerFailures: accessLog.authorizerFailures.with({ label: 'authorizer failures' }),
      payRouteServerErrors: accessLog.payRouteServerErrors.with({ label: 'pay-route 5xx' }),
      processorCalls: processor(ProcessorMetricNames.calls).with({ label: 'processor calls' }),
      processorErrors: processorErrors.with({ label: 'processor errors' }),
      criticalFunctionThrottles: throttles,
      accountConcurrentExecutions: concurrency.with({ label: 'account concurrent executions' }),
      webAclBlockedRequests: webAclBlocked.with({ label: 'blocked' }),
      webAclAllowedRequests: webAcl('AllowedRequests').with({ label: 'allowed' }),
    };

    this.authorizerFailures = alarm('AuthorizerFailuresAlarm', 'authorizer-failures', {
      alarmDescription: `API Gateway answered ${thresholds.authorizerFailures} or more requests 500 in 5 minutes because the authorizer failed (crash, timeout, throttle or a bad answer; refused keys are not counted).`,
      metric: accessLog.authorizerFailures,
      ...countAlarmProps(thresholds.authorizerFailures),
    });
    this.payRouteServerErrors = alarm('PayRouteServerErrorsAlarm', 'pay-route-5xx', {
      alarmDescription: `The public pay routes answered ${thresholds.payRouteServerErrors} or more requests 5xx in 5 minutes: payers could not see or pay invoices.`,
      metric: accessLog.payRouteServerErrors,
      ...countAlarmProps(thresholds.payRouteServerErrors),
    });
    this.processorErrors = alarm('ProcessorErrorsAlarm', 'processor-errors', {
      alarmDescription: `${thresholds.processorErrors} or more calls to the payment processor got no answer in 5 minutes (declines are answers and not counted).`,
      metric: processorErrors,
      ...countAlarmProps(thresholds.processorErrors),
    });
    this.criticalFunctionThrottles = alarm('CriticalFunctionThrottlesAlarm', 'critical-function-throttles', {
      alarmDescription: `Lambda throttled the authorizer, the pay routes or the pipeline functions ${thresholds.criticalFunctionThrottles} or more times in 5 minutes.`,
      metric: sumOf(throttles, 'throttles of the critical functions'),
      ...countAlarmProps(thresholds.criticalFunctionThrottles),
    });
    this.accountConcurrency = alarm('AccountConcurrencyAlarm', 'account-concurrency', {
      alarmDescription: `The account ran ${thresholds.accountConcurrentExecutions} or more Lambda executions at once in this region (every function, every stack) in 3 of 5 minutes: near the quota, past which every function is throttled.`,
      metric: concurrency,
      threshold: thresholds.accountConcurrentExecutions,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      datapointsToAlarm: concurrencyEvaluation.datapointsToAlarm,
      evaluationPeriods: concurrencyEvaluation.evaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.webAclBlockedRequests = alarm('WebAclBlockedRequestsAlarm', 'waf-blocked-requests', {
      alarmDescription: `The web ACL blocked ${thresholds.webAclBlockedRequests} or more requests in 5 minutes (every rule): a flood being held off, or a rule refusing real callers.`,
      metric: webAclBlocked,
      ...countAlarmProps(thresholds.webAclBlockedRequests),
    });
  }

  /**
   * Stripe's webhook: refused signatures, events processed more than 15 minutes after Stripe made
   * them, and events of an account or object the service does not know, each a count over 5 minutes
   * as its route writes it (`StripeEventMetricNames`).
   */
  private stripeEventAlarms(
    thresholds: StripeEventThresholds,
    processor: (metricName: string) => cloudwatch.Metric,
    alarm: (id: string, suffix: string, props: Omit<cloudwatch.AlarmProps, 'alarmName'>) => cloudwatch.Alarm,
  ): { alarms: StripeEventAlarms; signals: StripeEventSignals } {
    const signatureFailures = processor(StripeEventMetricNames.signatureFailures);
    const late = processor(StripeEventMetricNames.late);
    const unknown = processor(StripeEventMetricNames.unknown);
    return {
      alarms: {
        signatureFailures: alarm('StripeSignatureFailuresAlarm', 'stripe-signature-failures', {
          alarmDescription: `${thresholds.signatureFailures} or more requests to Stripe's webhook in 5 minutes had no Stripe-Signature that verifies with the Connect webhook secret (answered 400): a secret that no longer matches, or requests not from Stripe.`,
          metric: signatureFailures,
          ...countAlarmProps(thresholds.signatureFailures),
        }),
        late: alarm('StripeEventsLateAlarm', 'stripe-events-late', {
          alarmDescription: `${thresholds.lateEvents} or more of Stripe's events in 5 minutes were processed more than 15 minutes after Stripe created them: its deliveries failed or were held up, or events are being replayed.`,
          metric: late,
          ...countAlarmProps(thresholds.lateEvents),
        }),
        unknown: alarm('StripeEventsUnknownAlarm', 'stripe-events-unknown', {
          alarmDescription: `${thresholds.unknownEvents} or more of Stripe's events in 5 minutes named an account no merchant linked or an object the service did not make (recorded unknown_account or unknown_object, nothing changed).`,
          metric: unknown,
          ...countAlarmProps(thresholds.unknownEvents),
        }),
      },
      signals: {
        signatureFailures: signatureFailures.with({ label: 'refused signatures' }),
        late: late.with({ label: 'late events (15+ minutes)' }),
        unknown: unknown.with({ label: 'unknown account or object' }),
        processed: late.with({ statistic: cloudwatch.Stats.SAMPLE_COUNT, label: 'events processed' }),
      },
    };
  }

  /**
   * 5xx share and p99 latency, M of N periods, each period counted only with enough requests: below
   * the floor the expression gives 0, so a quiet period with one failed request is healthy.
   */
  private apiAlarms(
    restApi: apigateway.RestApi,
    thresholds: AlarmThresholds,
    alarm: (id: string, suffix: string, props: Omit<cloudwatch.AlarmProps, 'alarmName'>) => cloudwatch.Alarm,
  ): [cloudwatch.Alarm, cloudwatch.Alarm] {
    const { periodMinutes, datapointsToAlarm, evaluationPeriods, minimumRequests } = thresholds.apiEvaluation;
    const period = Duration.minutes(periodMinutes);
    const requests = restApi.metricCount({ period, statistic: cloudwatch.Stats.SUM });
    const periods = `${datapointsToAlarm} of ${evaluationPeriods} periods of ${periodMinutes} minute${periodMinutes === 1 ? '' : 's'}`;
    const floor = `with at least ${minimumRequests} requests`;
    const evaluation = {
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      datapointsToAlarm,
      evaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    };
    return [
      alarm('Api5xxRateAlarm', 'api-5xx-rate', {
        alarmDescription: `More than ${thresholds.api5xxRate * 100} % of API requests were answered 5xx in ${periods} ${floor}.`,
        metric: new cloudwatch.MathExpression({
          expression: `IF(requests >= ${minimumRequests}, errors / requests, 0)`,
          usingMetrics: {
            requests,
            errors: restApi.metricServerError({ period, statistic: cloudwatch.Stats.SUM }),
          },
          period,
          label: '5xx share of requests',
        }),
        threshold: thresholds.api5xxRate,
        ...evaluation,
      }),
      alarm('ApiLatencyP99Alarm', 'api-latency-p99', {
        alarmDescription: `The API's p99 latency was above ${thresholds.apiP99LatencyMs} ms in ${periods} ${floor}.`,
        metric: new cloudwatch.MathExpression({
          expression: `IF(requests >= ${minimumRequests}, latency, 0)`,
          usingMetrics: {
            requests,
            latency: restApi.metricLatency({ period, statistic: cloudwatch.Stats.p(99) }),
          },
          period,
          label: 'p99 latency (ms)',
        }),
        threshold: thresholds.apiP99LatencyMs,
        ...evaluation,
      }),
    ];
  }

  private tableAlarms(
    table: dynamodb.Table,
    thresholds: AlarmThresholds,
    alarm: (id: string, suffix: string, props: Omit<cloudwatch.AlarmProps, 'alarmName'>) => cloudwatch.Alarm,
  ): [cloudwatch.Alarm, cloudwatch.Alarm] {
    const operations = { operations: [...tableOperations], period: fiveMinutes };
    return [
      alarm('TableThrottlesAlarm', 'table-throttles', {
        alarmDescription: `The table throttled ${thresholds.tableThrottledRequests} or more requests in 5 minutes (a hot partition: see the shard commands).`,
        metric: table.metricThrottledRequestsForOperations(operations),
        ...countAlarmProps(thresholds.tableThrottledRequests),
      }),
      alarm('TableSystemErrorsAlarm', 'table-system-errors', {
        alarmDescription: 'DynamoDB answered requests with its own 500 errors in the last 5 minutes.',
        metric: table.metricSystemErrorsForOperations(operations),
        ...countAlarmProps(1),
      }),
    ];
  }
}

/**
 * The sum of several counts. A function that was never throttled has no datapoint, and `a + b`
 * has none where either is missing, so each is filled with 0 first.
 */
function sumOf(metrics: readonly cloudwatch.IMetric[], label: string): cloudwatch.MathExpression {
  if (metrics.length === 0 || metrics.length > maxMetricsPerAlarm) {
    throw new Error(`An alarm can sum 1 to ${maxMetricsPerAlarm} metrics (got ${metrics.length})`);
  }
  const usingMetrics = Object.fromEntries(metrics.map((metric, index) => [`m${index}`, metric]));
  return new cloudwatch.MathExpression({
    expression: Object.keys(usingMetrics)
      .map((name) => `FILL(${name}, 0)`)
      .join(' + '),
    usingMetrics,
    period: fiveMinutes,
    label,
  });
}

/** WAF names a web ACL's metrics after its visibility config's metric name, not the ACL's name. */
function webAclMetricName(webAcl: wafv2.CfnWebACL): string {
  const config = webAcl.visibilityConfig as Partial<wafv2.CfnWebACL.VisibilityConfigProperty>;
  if (typeof config.metricName !== 'string') throw new Error('The web ACL has no literal metric name');
  return config.metricName;
}
