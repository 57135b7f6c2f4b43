import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { PipelineMetricNames } from '../../functions/delivery/pipeline-metric-names';
import { deliveryQueueAge, webhookSuccessEvaluation } from './delivery-pipeline';
import { type PipelineMetricDimensions, pipelineMetric } from './pipeline-metric';
import { type ServiceSignals, tableOperations } from './service-alarms';
import type { AlarmThresholds } from './stage-settings';

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
  /** The metrics behind the service alarms, graphed as they alarm. */
  readonly signals: ServiceSignals;
  /** The API's access log, for the 5xx answers by route. */
  readonly accessLogs: logs.ILogGroup;
  /** Drawn as lines on the graphs of the signals they judge. */
  readonly thresholds: AlarmThresholds;
}

const oneMinute = Duration.minutes(1);
const width = 12;
const height = 6;
const sum = cloudwatch.Stats.SUM;

function graph(
  title: string,
  left: cloudwatch.IMetric[],
  options: Partial<cloudwatch.GraphWidgetProps> = {},
): cloudwatch.GraphWidget {
  return new cloudwatch.GraphWidget({ title, left, width, height, ...options });
}

/**
 * One dashboard per stage, in the order an on-call engineer reads it: what merchants see of the API
 * (overall, then by route, its 5xx answers from the access log), what payers and the authorizer see
 * and what the web ACL blocks, then whether webhooks go out (attempts and their outcomes, success
 * rate, lag from event to first attempt), then the queues between, Lambda capacity, and the table
 * under everything. A line marks the threshold of each alarm whose metric a graph shows alone.
 */
export class ServiceDashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
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
    this.addApiWidgets(props);
    this.addRouteWidgets(props);
    this.addCallerWidgets(props);
    this.addDeliveryWidgets(props);
    this.addWebhookSuccessWidget(props);
    this.addStripeEventWidget(props);
    this.addQueueWidgets(props);
    this.addCapacityWidgets(props);
    this.addTableWidgets(props);
  }

  /** What merchants see of the API as a whole: requests, errors and latency. */
  private addApiWidgets({ restApi }: ServiceDashboardProps): void {
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
  }

  /** Each route's own function: invocations, crashes and timeouts, p99 duration. */
  private addRouteWidgets(props: ServiceDashboardProps): void {
    const routes = [...props.routeFunctions.entries()].sort(([a], [b]) => a.localeCompare(b));
    const byRoute = (metricOf: (fn: lambda.IFunction) => cloudwatch.Metric) =>
      routes.map(([operationId, fn]) => metricOf(fn).with({ label: operationId }));
    this.dashboard.addWidgets(
      graph(
        'Requests by route per minute',
        byRoute((fn) => fn.metricInvocations({ period: oneMinute, statistic: sum })),
        {
          legendPosition: cloudwatch.LegendPosition.RIGHT,
        },
      ),
      // A handled failure is a 5xx answer, not a function error: those are in the access log below.
      graph(
        'Errors by route per minute (crashes and timeouts)',
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
  }

  /** Whether webhooks go out: attempts and their outcomes, and the lag to the first attempt. */
  private addDeliveryWidgets({ metricDimensions }: ServiceDashboardProps): void {
    const pipeline = (metricName: string, statistic: string, label: string) =>
      pipelineMetric(metricName, metricDimensions, { period: oneMinute, statistic, label });
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
  }

  /** The queues between the stages of the pipeline: depth, and the age of the oldest work. */
  private addQueueWidgets(props: ServiceDashboardProps): void {
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
      graph(
        'Age of the oldest work',
        [
          props.deliveryQueue.metricApproximateAgeOfOldestMessage({
            period: oneMinute,
            statistic: cloudwatch.Stats.MAXIMUM,
            label: 'delivery queue (s)',
          }),
          pipelineMetric(PipelineMetricNames.overdueDeliveries, props.metricDimensions, {
            period: oneMinute,
            statistic: cloudwatch.Stats.MAXIMUM,
            label: 'overdue deliveries found',
          }),
        ],
        {
          // Milliseconds, on an axis of their own: on the seconds axis they would flatten the rest.
          right: [
            props.router.metric('IteratorAge', {
              period: oneMinute,
              statistic: cloudwatch.Stats.MAXIMUM,
              label: 'router behind stream (ms)',
            }),
          ],
          leftAnnotations: [
            { value: deliveryQueueAge.threshold.toSeconds(), label: 'delivery-queue-age alarm (s)' },
          ],
        },
      ),
    );
  }

  /** Lambda capacity: the pipeline functions' errors and throttles, the critical ones', the account's. */
  private addCapacityWidgets(props: ServiceDashboardProps): void {
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
      graph(
        'Lambda throttles of the critical functions (per 5 minutes) and account concurrency',
        [...props.signals.criticalFunctionThrottles],
        {
          right: [props.signals.accountConcurrentExecutions],
          rightAnnotations: [
            { value: props.thresholds.accountConcurrentExecutions, label: 'account-concurrency alarm' },
          ],
          legendPosition: cloudwatch.LegendPosition.RIGHT,
        },
      ),
    );
  }

  /** The table under everything: consumed capacity, throttled requests, system errors. */
  private addTableWidgets({ table }: ServiceDashboardProps): void {
    // Throttles and system errors in two graphs: both sums name their per-operation metrics alike,
    // and one graph cannot hold both.
    const third = { width: 8 };
    this.dashboard.addWidgets(
      graph(
        'Table consumed capacity per minute',
        [
          table.metricConsumedReadCapacityUnits({ period: oneMinute, statistic: sum, label: 'read units' }),
          table.metricConsumedWriteCapacityUnits({ period: oneMinute, statistic: sum, label: 'write units' }),
        ],
        third,
      ),
      graph(
        'Table throttled requests',
        [
          table.metricThrottledRequestsForOperations({
            operations: [...tableOperations],
            period: oneMinute,
            label: 'throttled requests',
          }),
        ],
        third,
      ),
      graph(
        'Table system errors',
        [
          table.metricSystemErrorsForOperations({
            operations: [...tableOperations],
            period: oneMinute,
            label: 'system errors',
          }),
        ],
        third,
      ),
    );
  }

  /**
   * What the authorizer, payers and the web ACL's callers get, per 5 minutes as their alarms count
   * it, and every 5xx answer of the API by route from the access log: a route's function errors
   * miss the failures it answered itself and the ones API Gateway answered for it.
   */
  private addCallerWidgets(props: ServiceDashboardProps): void {
    const { signals, thresholds } = props;
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Authorizer failures, pay-route 5xx, processor calls and errors (per 5 minutes)',
        left: [signals.authorizerFailures, signals.payRouteServerErrors, signals.processorErrors],
        right: [signals.processorCalls],
        width,
        height,
      }),
      new cloudwatch.GraphWidget({
        title: 'Web ACL requests (per 5 minutes, every rule)',
        left: [signals.webAclBlockedRequests],
        right: [signals.webAclAllowedRequests],
        leftAnnotations: [{ value: thresholds.webAclBlockedRequests, label: 'waf-blocked-requests alarm' }],
        width,
        height,
      }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.LogQueryWidget({
        title: '5xx answers by route (access log)',
        logGroupNames: [props.accessLogs.logGroupName],
        queryLines: [
          'filter status like /^5/',
          'stats count(*) as answers by httpMethod, resourcePath, status, errorResponseType',
          'sort answers desc',
          'limit 20',
        ],
        view: cloudwatch.LogQueryVisualizationType.TABLE,
        width: 24,
        height,
      }),
    );
  }

  /**
   * Stripe's webhook where the stage has it: refused signatures, late and unknown events against the
   * events processed, per 5 minutes as their alarms count them. One more graph, no more resources.
   */
  private addStripeEventWidget({ signals }: ServiceDashboardProps): void {
    const stripe = signals.stripeEvents;
    if (stripe === undefined) return;
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: "Stripe's events: refused signatures, late and unknown events (per 5 minutes)",
        left: [stripe.signatureFailures, stripe.late, stripe.unknown],
        right: [stripe.processed],
        width: 24,
        height,
      }),
    );
  }

  /** Attempts answered 2xx as a share of all attempts, per 5 minutes, as the alarm judges it. */
  private addWebhookSuccessWidget(props: ServiceDashboardProps): void {
    const { period } = webhookSuccessEvaluation;
    const sumOf = (metricName: string) =>
      pipelineMetric(metricName, props.metricDimensions, { period, statistic: cloudwatch.Stats.SUM });
    const threshold = props.thresholds.webhookSuccess;
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Webhook success rate (attempts answered 2xx, per 5 minutes)',
        left: [
          new cloudwatch.MathExpression({
            expression: 'FILL(succeeded, 0) / attempts',
            usingMetrics: {
              attempts: sumOf(PipelineMetricNames.attempts),
              succeeded: sumOf(PipelineMetricNames.succeeded),
            },
            period,
            label: 'success rate',
          }),
        ],
        leftYAxis: { min: 0, max: 1 },
        leftAnnotations:
          threshold === undefined
            ? []
            : [
                {
                  value: threshold.minimumRate,
                  label: `webhook-success-rate alarm (with ${threshold.minimumAttempts}+ attempts)`,
                },
              ],
        width: 24,
        height,
      }),
    );
  }
}
