import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { PipelineMetricNames } from '../../functions/delivery/pipeline-metric-names';
import { type PipelineMetricDimensions, pipelineMetric } from './pipeline-metric';
import { tableOperations } from './service-alarms';

export interface ServiceDashboardProps {
  readonly dashboardName: string;
  readonly restApi: apigateway.RestApi;
  /** Each route's own function by operationId: every route has one, so its metrics are the route's. */
  readonly routeFunctions: ReadonlyMap<string, lambda.IFunction>;
  readonly router: lambda.IFunction;
  readonly dispatcher: lambda.IFunction;
  readonly reconciler: lambda.IFunction;
  readonly deliveryQueue: sqs.IQueue;
  /** The delivery dead-letter queue and the failure destinations, each with its graph label. */
  readonly deadLetterQueues: readonly { readonly label: string; readonly queue: sqs.IQueue }[];
  readonly table: dynamodb.Table;
  /** The dimensions the pipeline's own metrics carry (PipelineMetricNames.dimensions). */
  readonly metricDimensions: PipelineMetricDimensions;
}

const oneMinute = Duration.minutes(1);
const width = 12;
const height = 6;

/**
 * One dashboard per stage, in the order an on-call engineer reads it: what merchants see of the API
 * (overall, then by route), then whether webhooks go out (attempts and their outcomes, lag from
 * event to first attempt), then the queues between, then the table under everything.
 */
export class ServiceDashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
    const { restApi, table } = props;
    const routes = [...props.routeFunctions.entries()].sort(([a], [b]) => a.localeCompare(b));
    const byRoute = (metricOf: (fn: lambda.IFunction) => cloudwatch.Metric) =>
      routes.map(([operationId, fn]) => metricOf(fn).with({ label: operationId }));
    const pipeline = (metricName: string, statistic: string, label: string) =>
      pipelineMetric(metricName, props.metricDimensions, { period: oneMinute, statistic, label });
    const sum = cloudwatch.Stats.SUM;
    const graph = (
      title: string,
      left: cloudwatch.IMetric[],
      options: Partial<cloudwatch.GraphWidgetProps> = {},
    ) => new cloudwatch.GraphWidget({ title, left, width, height, ...options });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.hours(3),
    });
    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown: `# ${props.dashboardName}\nEach alarm, what it means and what to do: docs/operations.md.`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      graph('API requests and errors per minute', [
        restApi.metricCount({ period: oneMinute, statistic: sum, label: 'requests' }),
        restApi.metricClientError({ period: oneMinute, statistic: sum, label: '4xx' }),
        restApi.metricServerError({ period: oneMinute, statistic: sum, label: '5xx' }),
      ]),
      graph('API latency (ms)', [
        restApi.metricLatency({ period: oneMinute, statistic: cloudwatch.Stats.p(50), label: 'p50' }),
        restApi.metricLatency({ period: oneMinute, statistic: cloudwatch.Stats.p(99), label: 'p99' }),
        restApi.metricIntegrationLatency({
          period: oneMinute,
          statistic: cloudwatch.Stats.p(99),
          label: 'integration p99',
        }),
      ]),
    );
    this.dashboard.addWidgets(
      graph(
        'Requests by route per minute',
        byRoute((fn) => fn.metricInvocations({ period: oneMinute, statistic: sum })),
        {
          legendPosition: cloudwatch.LegendPosition.RIGHT,
        },
      ),
      graph(
        'Errors by route per minute (5xx, crashes, timeouts)',
        byRoute((fn) => fn.metricErrors({ period: oneMinute, statistic: sum })),
        {
          legendPosition: cloudwatch.LegendPosition.RIGHT,
        },
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'p99 duration by route (ms)',
        byRoute((fn) => fn.metricDuration({ period: oneMinute, statistic: cloudwatch.Stats.p(99) })),
        {
          legendPosition: cloudwatch.LegendPosition.RIGHT,
          width: 24,
        },
      ),
    );
    this.dashboard.addWidgets(
      graph('Webhook deliveries per minute', [
        pipeline(PipelineMetricNames.attempts, sum, 'attempted'),
        pipeline(PipelineMetricNames.succeeded, sum, 'succeeded'),
        pipeline(PipelineMetricNames.failedAttempts, sum, 'failed attempts'),
        pipeline(PipelineMetricNames.exhausted, sum, 'exhausted'),
      ]),
      graph('Event to first attempt (ms)', [
        pipeline(PipelineMetricNames.firstAttemptLag, cloudwatch.Stats.p(50), 'p50'),
        pipeline(PipelineMetricNames.firstAttemptLag, cloudwatch.Stats.p(99), 'p99'),
        pipeline(PipelineMetricNames.firstAttemptLag, cloudwatch.Stats.MAXIMUM, 'max'),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Delivery queue depth', [
        props.deliveryQueue.metricApproximateNumberOfMessagesVisible({ period: oneMinute, label: 'visible' }),
        props.deliveryQueue.metricApproximateNumberOfMessagesNotVisible({
          period: oneMinute,
          label: 'in flight',
        }),
        props.deliveryQueue.metricApproximateNumberOfMessagesDelayed({
          period: oneMinute,
          label: 'delayed (retries)',
        }),
        ...props.deadLetterQueues.map(({ label, queue }) =>
          queue.metricApproximateNumberOfMessagesVisible({ period: oneMinute, label }),
        ),
      ]),
      graph('Age of the oldest work (s)', [
        props.deliveryQueue.metricApproximateAgeOfOldestMessage({
          period: oneMinute,
          label: 'delivery queue',
        }),
        props.router.metric('IteratorAge', {
          period: oneMinute,
          statistic: cloudwatch.Stats.MAXIMUM,
          label: 'router behind stream (ms)',
        }),
        pipeline(PipelineMetricNames.overdueDeliveries, cloudwatch.Stats.MAXIMUM, 'overdue deliveries found'),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Pipeline function errors and throttles', [
        ...Object.entries({
          router: props.router,
          dispatcher: props.dispatcher,
          reconciler: props.reconciler,
        }).flatMap(([name, fn]) => [
          fn.metricErrors({ period: oneMinute, statistic: sum, label: `${name} errors` }),
          fn.metricThrottles({ period: oneMinute, statistic: sum, label: `${name} throttles` }),
        ]),
      ]),
      graph('Table consumed capacity per minute', [
        table.metricConsumedReadCapacityUnits({ period: oneMinute, statistic: sum, label: 'read units' }),
        table.metricConsumedWriteCapacityUnits({ period: oneMinute, statistic: sum, label: 'write units' }),
      ]),
    );
    // Two graphs: both sums name their per-operation metrics alike, and one graph cannot hold both.
    this.dashboard.addWidgets(
      graph('Table throttled requests', [
        table.metricThrottledRequestsForOperations({
          operations: [...tableOperations],
          period: oneMinute,
          label: 'throttled requests',
        }),
      ]),
      graph('Table system errors', [
        table.metricSystemErrorsForOperations({
          operations: [...tableOperations],
          period: oneMinute,
          label: 'system errors',
        }),
      ]),
    );
  }
}
