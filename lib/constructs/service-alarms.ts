import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { AlarmThresholds } from './stage-settings';

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

export interface ServiceAlarmsProps {
  /** Prefix of the alarm names (the stack name). */
  readonly namePrefix: string;
  readonly restApi: apigateway.RestApi;
  readonly table: dynamodb.Table;
  readonly thresholds: AlarmThresholds;
}

const fiveMinutes = Duration.minutes(5);

/**
 * The alarms on what merchants see of the stage (the API's 5xx rate and p99 latency) and on the
 * table under everything (throttled requests, DynamoDB's own errors). The pipeline's alarms live
 * with the pipeline.
 */
export class ServiceAlarms extends Construct {
  readonly api5xxRate: cloudwatch.Alarm;
  readonly apiLatencyP99: cloudwatch.Alarm;
  readonly tableThrottles: cloudwatch.Alarm;
  readonly tableSystemErrors: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const { namePrefix, restApi, table, thresholds } = props;

    // 5XXError's average over a period is the share of requests answered 5xx. An idle stage has no
    // datapoints, which is healthy.
    this.api5xxRate = new cloudwatch.Alarm(this, 'Api5xxRateAlarm', {
      alarmName: `${namePrefix}-api-5xx-rate`,
      alarmDescription: `More than ${thresholds.api5xxRate * 100} % of API requests were answered 5xx over 5 minutes.`,
      metric: restApi.metricServerError({ period: fiveMinutes, statistic: cloudwatch.Stats.AVERAGE }),
      threshold: thresholds.api5xxRate,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: thresholds.apiEvaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.apiLatencyP99 = new cloudwatch.Alarm(this, 'ApiLatencyP99Alarm', {
      alarmName: `${namePrefix}-api-latency-p99`,
      alarmDescription: `The API's p99 latency was above ${thresholds.apiP99LatencyMs} ms over 5 minutes.`,
      metric: restApi.metricLatency({ period: fiveMinutes, statistic: cloudwatch.Stats.percentile(99) }),
      threshold: thresholds.apiP99LatencyMs,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: thresholds.apiEvaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.tableThrottles = new cloudwatch.Alarm(this, 'TableThrottlesAlarm', {
      alarmName: `${namePrefix}-table-throttles`,
      alarmDescription: `The table throttled ${thresholds.tableThrottledRequests} or more requests in 5 minutes (a hot partition: see the shard commands).`,
      metric: table.metricThrottledRequestsForOperations({
        operations: [...tableOperations],
        period: fiveMinutes,
      }),
      threshold: thresholds.tableThrottledRequests,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.tableSystemErrors = new cloudwatch.Alarm(this, 'TableSystemErrorsAlarm', {
      alarmName: `${namePrefix}-table-system-errors`,
      alarmDescription: 'DynamoDB answered requests with its own 500 errors in the last 5 minutes.',
      metric: table.metricSystemErrorsForOperations({
        operations: [...tableOperations],
        period: fiveMinutes,
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}
