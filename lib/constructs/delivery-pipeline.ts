import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { FunctionEnvironment } from '../../functions/config';
import { PipelineMetricNames } from '../../functions/delivery/pipeline-metric-names';
import { routedEntityTypes, routerBatchSize } from '../../functions/delivery/router';
import { functionName } from '../stack-name';
import type { DataKey } from './data-key';
import {
  type DeliveryQueue,
  dispatcherTimeout,
  encryptedQueueProps,
  grantSend,
  retryDelay,
} from './delivery-queue';
import type { MailQueue } from './mail-queue';
import { type PaymentsTable, TableAccess } from './payments-table';
import { type PipelineMetricDimensions, pipelineMetric } from './pipeline-metric';
import { type FunctionLogs, InvocationTracing, ServiceFunction, type TraceWriting } from './service-function';
import type { StageSettings } from './stage-settings';

/** A merchant endpoint has 10 s to answer one attempt. */
export const webhookAttemptTimeout = Duration.seconds(10);

/** The reconciler's schedule (docs/architecture.md#the-delivery-pipeline). */
export const reconcileEvery = Duration.minutes(5);

/**
 * Stream event source mapping of the router. Every value is exported so the tests read the same
 * numbers the stack uses.
 */
export const routerStream = {
  /** One invocation can hold a whole burst of a busy merchant's writes. */
  batchSize: routerBatchSize,
  /**
   * The router is idempotent (docs/decisions/delivery-pipeline.md), so a poison record costs only its
   * retries. Ten retries, with bisection halving the batch each time, isolate one bad record from a batch of
   * 100 well before they run out, and ride out a minute or two of throttling or an SQS hiccup.
   */
  retryAttempts: 10,
  /**
   * The stream keeps records 24 h. Skipping records older than 12 h (to the failures queue) leaves
   * an operator 12 h to replay them from the stream by the sequence numbers in the failure
   * message (`router replay`), and 12 h of backlog is far past the 5-minute IteratorAge alarm.
   */
  maxRecordAge: Duration.hours(12),
  /** A batch of 100 records, each up to one query and 20 puts (one per endpoint), done in order. */
  timeout: Duration.seconds(60),
} as const;

/** Queue event source mapping of the dispatcher. */
export const dispatcherQueue = {
  /** Messages of a batch are attempted concurrently, so 10 attempts fit in one 30 s invocation. */
  batchSize: 10,
  /**
   * None: a message is handed to the dispatcher as soon as a poller receives it. A window would hold a
   * lone delivery for up to its length at light traffic, where the cost model already counts one
   * invocation per attempt, and under load batches fill without one
   * (docs/decisions/dispatcher-batching-window.md).
   */
  maxBatchingWindow: Duration.seconds(0),
  /**
   * Caps the dispatcher at 50 concurrent invocations (≤ 500 attempts in flight): the whole
   * service's attempt ceiling, about 2,500 attempts/s at 200 ms each, which leaves room for one
   * endpoint spread over 4–6 delivery shards to take 500 deliveries/s beside everyone else's. It
   * still cannot starve the API's functions of the account's 1,000 default concurrency during a
   * backlog, and unlike reserved concurrency the cap holds messages in the queue instead of
   * throttling them (a throttled message burns a receive and moves towards the dead-letter queue).
   */
  maxConcurrency: 50,
} as const;

/** IteratorAge above this means the router is behind or stuck on a shard. */
export const routerIteratorAgeThreshold = Duration.minutes(5);

/**
 * The oldest delivery message older than this, three minutes running, means the dispatcher is not
 * keeping up or not receiving. A retry is sent with the queue's 60 s delay and its age counts from
 * the send, so a healthy queue's oldest visible message is a little over a minute old whenever
 * retries flow (first attempts go with no delay). Five times the delay leaves room for a burst held
 * back by the dispatcher's concurrency cap; a message whose batch crashed once comes back about
 * 4 minutes old (the delay plus the 3-minute visibility timeout), under the line, and one that
 * crashed twice crosses it.
 */
export const deliveryQueueAge = {
  threshold: Duration.minutes(5),
  period: Duration.minutes(1),
  evaluationPeriods: 3,
} as const;

/**
 * The webhook success rate is judged per 5 minutes, 2 of 3 periods: one endpoint's bad 5 minutes
 * or a deploy's blip does not page, a quarter hour of mostly failed attempts does.
 */
export const webhookSuccessEvaluation = {
  period: Duration.minutes(5),
  datapointsToAlarm: 2,
  evaluationPeriods: 3,
} as const;

/**
 * The reconciler reports its overdue count every run (0 included), so a period this long with no
 * report means it stopped running: two runs' worth, so one late run does not page anyone.
 */
export const overdueReportPeriod = Duration.minutes(reconcileEvery.toMinutes() * 2);

/** Named after the functions' own env schema, so renaming a variable there breaks the build here. */
type PipelineEnvironment = { readonly [Name in keyof FunctionEnvironment]?: string };

/** What differs between the router, the dispatcher and the reconciler functions. */
interface PipelineFunction {
  readonly id: string;
  readonly nameSuffix: string;
  readonly handlerModule: string;
  readonly description: string;
  readonly timeout: Duration;
  readonly environment: PipelineEnvironment;
}

const routerFailuresReason =
  'This queue is itself the dead-letter store of the router: the on-failure destination of the ' +
  'table stream mapping, holding the shard and sequence numbers of records the router gave up on. ' +
  'Operators read it after its alarm; nothing consumes it, so a second dead-letter queue would never fill.';

const reconcilerFailuresReason =
  'This queue is itself a dead-letter store: the on-failure destination of the reconciler and the ' +
  'dead-letter queue of its schedule. Its messages only say that a run failed; the next run, five ' +
  'minutes later, is the retry, so nothing consumes it and a second dead-letter queue would never fill.';

const oneOrMore = {
  threshold: 1,
  comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
} as const;
const everyMinute = { period: Duration.minutes(1), statistic: cloudwatch.Stats.MAXIMUM };
const fiveMinuteSum = { period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM };

/** The timings the pipeline's numbers must keep between them. */
function checkPipelineTimings(): void {
  if (webhookAttemptTimeout.toSeconds() >= dispatcherTimeout.toSeconds()) {
    throw new Error('The dispatcher timeout must leave room for one webhook attempt');
  }
  if (deliveryQueueAge.threshold.toSeconds() <= retryDelay.toSeconds()) {
    throw new Error('The delivery queue age alarm must stand above the retry delay every retry carries');
  }
}

export interface DeliveryPipelineProps {
  /** Prefix of the physical function and alarm names (the stack name). */
  readonly namePrefix: string;
  readonly settings: StageSettings;
  readonly table: PaymentsTable;
  readonly deliveryQueue: DeliveryQueue;
  /** Customer emails: the router enqueues an invoice's emails, the reconciler the overdue ones. */
  readonly mailQueue: MailQueue;
  readonly secretsKey: kms.IKey;
  /** Encrypts the queues: the failure queues it makes and what its functions send. */
  readonly dataKey: DataKey;
  /** The stack's one log group of every function. */
  readonly functionLogs: FunctionLogs;
  readonly tracing: TraceWriting;
  /** Physical names of the two failure queues (`queueNames` of lib/stack-name.ts). */
  readonly routerFailuresQueueName: string;
  readonly reconcilerFailuresQueueName: string;
  /** The dimensions the pipeline's own metrics carry (PipelineMetricNames.dimensions). */
  readonly metricDimensions: PipelineMetricDimensions;
  /** TABLE_NAME, STAGE and the Powertools service name, shared with every function. */
  readonly environment: Readonly<Record<string, string>>;
  /**
   * Puts the router and the dispatcher behind a rolled-out alias and returns what their event
   * sources invoke (`SafeRollout.rollOut`). @default the functions themselves
   */
  readonly rollOut?: (fn: ServiceFunction, id: string) => lambda.IFunction;
}

/**
 * The delivery pipeline behind the table (docs/architecture.md#the-delivery-pipeline): stream → router →
 * delivery queue → dispatcher, the scheduled reconciler, and the alarms that say a delivery is stuck.
 */
export class DeliveryPipeline extends Construct {
  readonly router: ServiceFunction;
  readonly dispatcher: ServiceFunction;
  readonly reconciler: ServiceFunction;
  /** On-failure destination of the stream mapping: records the router gave up on. */
  readonly routerFailures: sqs.Queue;
  /** Reconciler runs that failed, and schedule events EventBridge could not hand to it. */
  readonly reconcilerFailures: sqs.Queue;
  readonly streamMapping: lambda.EventSourceMapping;
  readonly schedule: events.Rule;
  readonly alarms: {
    readonly deadLetterQueueNotEmpty: cloudwatch.Alarm;
    readonly routerFailuresNotEmpty: cloudwatch.Alarm;
    readonly reconcilerFailuresNotEmpty: cloudwatch.Alarm;
    readonly dispatcherErrors: cloudwatch.Alarm;
    readonly routerErrors: cloudwatch.Alarm;
    readonly reconcilerErrors: cloudwatch.Alarm;
    readonly routerIteratorAge: cloudwatch.Alarm;
    readonly overdueDeliveries: cloudwatch.Alarm;
    readonly deliveryQueueAge: cloudwatch.Alarm;
    /** Only where the stage's thresholds set one (production). */
    readonly webhookSuccessRate: cloudwatch.Alarm | undefined;
  };

  constructor(scope: Construct, id: string, props: DeliveryPipelineProps) {
    super(scope, id);
    checkPipelineTimings();
    const rollOut = props.rollOut ?? ((fn: ServiceFunction) => fn.function);
    this.router = this.createRouter(props);
    this.routerFailures = this.failureStore(
      props,
      'RouterFailures',
      props.routerFailuresQueueName,
      routerFailuresReason,
    );
    this.reconcilerFailures = this.failureStore(
      props,
      'ReconcilerFailures',
      props.reconcilerFailuresQueueName,
      reconcilerFailuresReason,
    );
    this.streamMapping = this.readTableStream(props, rollOut(this.router, 'Router'));
    this.dispatcher = this.createDispatcher(props, rollOut);
    this.reconciler = this.createReconciler(props);
    this.schedule = this.scheduleReconciler(props);
    this.alarms = {
      ...this.failureQueueAlarms(props),
      ...this.functionAlarms(props),
      ...this.backlogAlarms(props),
      webhookSuccessRate: this.webhookSuccessRateAlarm(
        props.namePrefix,
        props.settings,
        props.metricDimensions,
      ),
    };
  }

  /** A pipeline function: the stack's function logs, and no traced invocations of its own. */
  private pipelineFunction(props: DeliveryPipelineProps, fn: PipelineFunction): ServiceFunction {
    return new ServiceFunction(this, fn.id, {
      functionName: functionName(props.namePrefix, fn.nameSuffix),
      handlerModule: fn.handlerModule,
      description: fn.description,
      environment: { ...props.environment, ...fn.environment },
      timeout: fn.timeout,
      logs: props.functionLogs,
      tracing: props.tracing,
      // The stream, the queue and the schedule sample nothing, so no pipeline invocation is traced.
      invocationTracing: InvocationTracing.callerDecides,
    });
  }

  /** Router: table stream → delivery items and queue messages. */
  private createRouter(props: DeliveryPipelineProps): ServiceFunction {
    const { table, deliveryQueue, mailQueue, dataKey } = props;
    const router = this.pipelineFunction(props, {
      id: 'Router',
      nameSuffix: 'router',
      handlerModule: 'delivery/router-handler',
      description: 'Table stream consumer: fans events out to deliveries and emails, and enqueues them',
      timeout: routerStream.timeout,
      environment: {
        DELIVERY_QUEUE_URL: deliveryQueue.queue.queueUrl,
        MAIL_QUEUE_URL: mailQueue.queue.queueUrl,
      },
    });
    table.grantAccess(router.role, TableAccess.readWrite);
    grantSend(deliveryQueue.queue, dataKey, router.role);
    grantSend(mailQueue.queue, dataKey, router.role);
    // The three stream actions on this table's stream only.
    table.grantStreamRecords(router.role);
    // Lambda checks for dynamodb:ListStreams when it creates the stream mapping, and that action
    // has no resource-level permission. It sits alone in a policy of its own, so the acknowledgement
    // below covers exactly it and any other wildcard on the router's role is still reported.
    const listStreams = new iam.Policy(this, 'RouterListStreams', {
      statements: [new iam.PolicyStatement({ actions: ['dynamodb:ListStreams'], resources: ['*'] })],
    });
    listStreams.attachToRole(router.role);
    Validations.of(listStreams).acknowledge(
      {
        id: 'PCI.DSS.321-IAMNoInlinePolicy',
        reason:
          'A policy of its own, attached to the router role only, so that the acknowledgement of its wildcard ' +
          'resource below covers dynamodb:ListStreams alone; a managed policy could be attached elsewhere.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'dynamodb:ListStreams supports no resource-level permission, and Lambda requires it of the role to ' +
          'create the table stream event source mapping. It only lists stream ARNs; every read action is ' +
          'granted on this table stream alone in the role policy.',
      },
    );
    return router;
  }

  /**
   * Each failure queue is itself a dead-letter store: nothing consumes it, so it has no dead-letter
   * queue of its own, and it is kept in production, where its messages are the only record of what
   * must still be replayed or looked into.
   */
  private failureStore(
    props: DeliveryPipelineProps,
    id: string,
    queueName: string,
    reason: string,
  ): sqs.Queue {
    const queue = new sqs.Queue(this, id, {
      queueName,
      ...encryptedQueueProps(props.dataKey),
      retentionPeriod: Duration.days(14),
      removalPolicy: props.settings.removalPolicy,
    });
    Validations.of(queue).acknowledge(
      { id: 'AwsSolutions-SQS3', reason },
      { id: 'cdk-validator-cfnguard::sqs_dlq_check', reason: `CT.SQS.PR.1: ${reason}` },
    );
    return queue;
  }

  /** The router's stream mapping: records of routed item types only, failures to `routerFailures`. */
  private readTableStream(props: DeliveryPipelineProps, router: lambda.IFunction): lambda.EventSourceMapping {
    const streamArn = props.table.tableStreamArn;
    if (streamArn === undefined) throw new Error('The table has no stream for the router to read');
    const routed = [...routedEntityTypes];
    return router.addEventSourceMapping('TableStream', {
      eventSourceArn: streamArn,
      // TRIM_HORIZON: a new or replaced mapping starts at the oldest record the stream still holds,
      // so no outbox event written while it was being (re)created is skipped; the router is
      // idempotent, so records seen twice cost nothing.
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: routerStream.batchSize,
      bisectBatchOnError: true,
      reportBatchItemFailures: true,
      retryAttempts: routerStream.retryAttempts,
      maxRecordAge: routerStream.maxRecordAge,
      onFailure: exactQueueDestination(this.routerFailures, props.dataKey),
      // Two filters are ORed: an item of a routed type, whichever image the record carries.
      filters: [
        lambda.FilterCriteria.filter({
          dynamodb: { NewImage: { entityType: { S: lambda.FilterRule.or(...routed) } } },
        }),
        lambda.FilterCriteria.filter({
          dynamodb: { OldImage: { entityType: { S: lambda.FilterRule.or(...routed) } } },
        }),
      ],
    });
  }

  /** Dispatcher: delivery queue → signed HTTPS POST → attempt recorded. */
  private createDispatcher(
    props: DeliveryPipelineProps,
    rollOut: (fn: ServiceFunction, id: string) => lambda.IFunction,
  ): ServiceFunction {
    const dispatcher = this.pipelineFunction(props, {
      id: 'Dispatcher',
      nameSuffix: 'dispatcher',
      handlerModule: 'delivery/dispatcher-handler',
      description: 'Delivery queue consumer: signs and sends one webhook attempt per message and records it',
      timeout: dispatcherTimeout,
      environment: {
        SECRETS_KEY_ID: props.secretsKey.keyArn,
        WEBHOOK_TIMEOUT_MS: String(webhookAttemptTimeout.toMilliseconds()),
        WEBHOOK_RETRY_DELAY_SECONDS: String(retryDelay.toSeconds()),
      },
    });
    props.table.grantAccess(dispatcher.role, TableAccess.readWrite);
    // It only opens signing secrets; sealing them is the webhook routes' job.
    props.secretsKey.grant(dispatcher.role, 'kms:Decrypt');
    rollOut(dispatcher, 'Dispatcher').addEventSource(
      new SqsEventSource(props.deliveryQueue.queue, {
        batchSize: dispatcherQueue.batchSize,
        maxBatchingWindow: dispatcherQueue.maxBatchingWindow,
        reportBatchItemFailures: true,
        maxConcurrency: dispatcherQueue.maxConcurrency,
      }),
    );
    return dispatcher;
  }

  /** Reconciler: every 5 minutes, re-enqueue overdue pending deliveries. */
  private createReconciler(props: DeliveryPipelineProps): ServiceFunction {
    const { table, deliveryQueue, mailQueue, dataKey } = props;
    const reconciler = this.pipelineFunction(props, {
      id: 'Reconciler',
      nameSuffix: 'reconciler',
      handlerModule: 'delivery/reconciler-handler',
      description:
        'Scheduled safety net: re-enqueues overdue pending deliveries and nudges stalled recoveries',
      timeout: Duration.seconds(60),
      environment: {
        DELIVERY_QUEUE_URL: deliveryQueue.queue.queueUrl,
        MAIL_QUEUE_URL: mailQueue.queue.queueUrl,
      },
    });
    table.grantAccess(reconciler.role, TableAccess.read);
    table.grantRecoveryNudge(reconciler.role);
    grantSend(deliveryQueue.queue, dataKey, reconciler.role);
    grantSend(mailQueue.queue, dataKey, reconciler.role);
    // The next run is the retry: Lambda's own two async retries would only overlap it. A failed run
    // still leaves a message behind, so its alarm tells someone.
    reconciler.function.configureAsyncInvoke({
      retryAttempts: 0,
      maxEventAge: reconcileEvery,
      onFailure: exactQueueDestination(this.reconcilerFailures, dataKey),
    });
    return reconciler;
  }

  private scheduleReconciler(props: DeliveryPipelineProps): events.Rule {
    return new events.Rule(this, 'ReconcileSchedule', {
      description: `Runs ${props.namePrefix}-reconciler every ${reconcileEvery.toMinutes()} minutes`,
      schedule: events.Schedule.rate(reconcileEvery),
      targets: [
        new targets.LambdaFunction(this.reconciler.function, {
          retryAttempts: 2,
          deadLetterQueue: this.reconcilerFailures,
        }),
      ],
    });
  }

  /** An alarm on one period; no datapoints means an idle queue or function, which is healthy. */
  private idleIsHealthyAlarm(
    namePrefix: string,
    alarmId: string,
    nameSuffix: string,
    options: Pick<cloudwatch.AlarmProps, 'alarmDescription' | 'metric' | 'threshold' | 'comparisonOperator'>,
  ): cloudwatch.Alarm {
    return new cloudwatch.Alarm(this, alarmId, {
      ...options,
      alarmName: `${namePrefix}-${nameSuffix}`,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }

  /** A message in the dead-letter queue or in either failure queue. */
  private failureQueueAlarms({ namePrefix, deliveryQueue }: DeliveryPipelineProps) {
    return {
      deadLetterQueueNotEmpty: this.idleIsHealthyAlarm(
        namePrefix,
        'DeadLetterQueueAlarm',
        'delivery-dlq-not-empty',
        {
          alarmDescription:
            'Delivery messages the dispatcher failed to process 5 times are parked in the dead-letter queue.',
          metric: deliveryQueue.deadLetterQueue.metricApproximateNumberOfMessagesVisible(everyMinute),
          ...oneOrMore,
        },
      ),
      routerFailuresNotEmpty: this.idleIsHealthyAlarm(
        namePrefix,
        'RouterFailuresAlarm',
        'router-failures-not-empty',
        {
          alarmDescription:
            'The router gave up on table stream records (retries or record age exhausted); replay them from the stream within 24 h.',
          metric: this.routerFailures.metricApproximateNumberOfMessagesVisible(everyMinute),
          ...oneOrMore,
        },
      ),
      reconcilerFailuresNotEmpty: this.idleIsHealthyAlarm(
        namePrefix,
        'ReconcilerFailuresAlarm',
        'reconciler-failures-not-empty',
        {
          alarmDescription:
            'A reconciler run failed or its schedule could not invoke it; the safety net for lost delivery messages is down.',
          metric: this.reconcilerFailures.metricApproximateNumberOfMessagesVisible(everyMinute),
          ...oneOrMore,
        },
      ),
    };
  }

  /** A failed invocation of any pipeline function, and a router falling behind the stream. */
  private functionAlarms({ namePrefix }: DeliveryPipelineProps) {
    return {
      dispatcherErrors: this.idleIsHealthyAlarm(namePrefix, 'DispatcherErrorsAlarm', 'dispatcher-errors', {
        alarmDescription:
          'The dispatcher failed an invocation (an exception, a crash or a timeout) in the last 5 minutes; its messages come back after the visibility timeout.',
        metric: this.dispatcher.function.metricErrors(fiveMinuteSum),
        ...oneOrMore,
      }),
      routerErrors: this.idleIsHealthyAlarm(namePrefix, 'RouterErrorsAlarm', 'router-errors', {
        alarmDescription:
          'The router failed a stream batch (an exception, a crash or a timeout) in the last 5 minutes; the batch is retried.',
        metric: this.router.function.metricErrors(fiveMinuteSum),
        ...oneOrMore,
      }),
      reconcilerErrors: this.idleIsHealthyAlarm(namePrefix, 'ReconcilerErrorsAlarm', 'reconciler-errors', {
        alarmDescription: 'The reconciler (the safety net for lost delivery messages) failed a run.',
        metric: this.reconciler.function.metricErrors(fiveMinuteSum),
        ...oneOrMore,
      }),
      routerIteratorAge: this.idleIsHealthyAlarm(
        namePrefix,
        'RouterIteratorAgeAlarm',
        'router-iterator-age',
        {
          alarmDescription: `The router is more than ${routerIteratorAgeThreshold.toMinutes()} minutes behind the table stream.`,
          metric: this.router.function.metric('IteratorAge', everyMinute),
          threshold: routerIteratorAgeThreshold.toMilliseconds(),
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        },
      ),
    };
  }

  /** Deliveries waiting too long: overdue pending ones, and an old message in the delivery queue. */
  private backlogAlarms({ namePrefix, deliveryQueue, metricDimensions }: DeliveryPipelineProps) {
    return {
      // Written by the reconciler itself (EMF): pending deliveries whose message was lost.
      overdueDeliveries: new cloudwatch.Alarm(this, 'OverdueDeliveriesAlarm', {
        alarmName: `${namePrefix}-overdue-deliveries`,
        alarmDescription:
          'The reconciler found pending deliveries past due (a lost queue message or a stalled stream) and ' +
          're-enqueued them, or it has not reported for two runs.',
        metric: pipelineMetric(PipelineMetricNames.overdueDeliveries, metricDimensions, {
          period: overdueReportPeriod,
          statistic: cloudwatch.Stats.MAXIMUM,
        }),
        ...oneOrMore,
        evaluationPeriods: 1,
        // The reconciler reports 0 every run: silence means it is not running.
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      }),
      deliveryQueueAge: new cloudwatch.Alarm(this, 'DeliveryQueueAgeAlarm', {
        alarmName: `${namePrefix}-delivery-queue-age`,
        alarmDescription: `The oldest message of the delivery queue has been older than ${deliveryQueueAge.threshold.toMinutes()} minutes for ${deliveryQueueAge.evaluationPeriods} minutes: the dispatcher is not keeping up or not receiving.`,
        metric: deliveryQueue.queue.metricApproximateAgeOfOldestMessage({
          period: deliveryQueueAge.period,
          statistic: cloudwatch.Stats.MAXIMUM,
        }),
        threshold: deliveryQueueAge.threshold.toSeconds(),
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: deliveryQueueAge.evaluationPeriods,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    };
  }

  /**
   * Attempts answered 2xx over all attempts, from the dispatcher's own counts. A period with fewer
   * attempts than the floor counts as healthy (1), so one failure of one attempt never pages; a
   * period where every attempt failed has no `DeliveriesSucceeded` datapoint, hence the FILL.
   */
  private webhookSuccessRateAlarm(
    namePrefix: string,
    settings: StageSettings,
    dimensions: PipelineMetricDimensions,
  ): cloudwatch.Alarm | undefined {
    const threshold = settings.alarmThresholds.webhookSuccess;
    if (threshold === undefined) return undefined;
    const { period, datapointsToAlarm, evaluationPeriods } = webhookSuccessEvaluation;
    const sum = (metricName: string) =>
      pipelineMetric(metricName, dimensions, { period, statistic: cloudwatch.Stats.SUM });
    return new cloudwatch.Alarm(this, 'WebhookSuccessRateAlarm', {
      alarmName: `${namePrefix}-webhook-success-rate`,
      alarmDescription:
        `Less than ${threshold.minimumRate * 100} % of webhook attempts were answered 2xx in ${datapointsToAlarm} of ` +
        `${evaluationPeriods} periods of ${period.toMinutes()} minutes with at least ${threshold.minimumAttempts} attempts.`,
      metric: new cloudwatch.MathExpression({
        expression: `IF(attempts >= ${threshold.minimumAttempts}, FILL(succeeded, 0) / attempts, 1)`,
        usingMetrics: {
          attempts: sum(PipelineMetricNames.attempts),
          succeeded: sum(PipelineMetricNames.succeeded),
        },
        period,
        label: 'webhook success rate',
      }),
      threshold: threshold.minimumRate,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      datapointsToAlarm,
      evaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}

/**
 * An SQS failure destination (of the stream mapping or of asynchronous invocations) with exactly
 * the grants its sender needs; CDK's own SqsDlq and SqsDestination grant `kms:ReEncrypt*` and
 * `kms:GenerateDataKey*` as well.
 */
export function exactQueueDestination(
  queue: sqs.Queue,
  dataKey: DataKey,
): lambda.IEventSourceDlq & lambda.IDestination {
  const bind = (_scope: unknown, target: iam.IGrantable) => {
    grantSend(queue, dataKey, target);
    return { destination: queue.queueArn };
  };
  return { bind };
}
