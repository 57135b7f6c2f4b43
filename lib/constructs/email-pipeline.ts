import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EmailDelivery, type FunctionEnvironment } from '../../functions/config';
import { functionName } from '../stack-name';
import type { EmailConfig, EmailIdentityConfig } from '../stage-config';
import type { DataKey } from './data-key';
import { exactQueueDestination } from './delivery-pipeline';
import { encryptedQueueProps, grantSend } from './delivery-queue';
import { type MailQueue, mailerTimeout } from './mail-queue';
import { type PaymentsTable, TableAccess } from './payments-table';
import { type FunctionLogs, InvocationTracing, ServiceFunction, type TraceWriting } from './service-function';
import type { StageSettings } from './stage-settings';

/** Queue event source mapping of the mailer, as the dispatcher's (lib/constructs/delivery-pipeline.ts). */
export const mailerQueue = {
  /** Emails of a batch are sent concurrently; ten fit in one 30 s invocation. */
  batchSize: 10,
  /** None: an email is sent as soon as a poller receives its message. */
  maxBatchingWindow: Duration.seconds(0),
  /**
   * Lambda's smallest cap: at most 20 sends in flight, which keeps the stage near SES's sending rate
   * (14 a second for a new account) instead of far past it, and holds a burst of invoices in the
   * queue rather than throttling it towards the dead-letter queue. An email a few seconds late is
   * no harm; the mailer re-sends an SES throttle with a delay.
   */
  maxConcurrency: 2,
} as const;

/** The events the configuration set publishes, which the SES events function records. */
export const publishedEmailEvents = [
  ses.EmailSendingEvent.BOUNCE,
  ses.EmailSendingEvent.COMPLAINT,
  ses.EmailSendingEvent.DELIVERY,
  ses.EmailSendingEvent.REJECT,
] as const;

/**
 * The rates at which SES places an account under review (docs/decisions/email-infrastructure.md):
 * past them every stage of the account may lose the right to send.
 */
export const reputationThresholds = { bounceRate: 0.05, complaintRate: 0.001 } as const;

/**
 * SES recomputes an account's reputation rates over its recent sending, not per minute; the
 * highest value of a quarter hour is what the alarm judges.
 */
export const reputationPeriod = Duration.minutes(15);

/** Lambda's own retries of an SES event before it goes to the failures queue. */
export const sesEventsRetryAttempts = 2;

/** The mailer's variables, named after the functions' own env schema. */
type MailerEnvironment = Pick<
  Record<keyof FunctionEnvironment, string>,
  | 'MAIL_QUEUE_URL'
  | 'EMAIL_DELIVERY'
  | 'EMAIL_FROM_ADDRESS'
  | 'SES_CONFIGURATION_SET'
  | 'EMAILS_PER_MERCHANT_PER_HOUR'
  | 'PUBLIC_BASE_URL'
>;

const sesEventsFailuresReason =
  'This queue is itself a dead-letter store: the on-failure destination of the SES events function, ' +
  'holding the SES notifications it could not record after Lambda’s retries. Operators read it after its ' +
  'alarm and replay the events; nothing consumes it, so a second dead-letter queue would never fill.';

export interface EmailPipelineProps {
  /** Prefix of the physical function and alarm names (the stack name). */
  readonly namePrefix: string;
  readonly settings: StageSettings;
  /** The stage file's `email` section. */
  readonly email: EmailConfig;
  readonly table: PaymentsTable;
  readonly mailQueue: MailQueue;
  /** Encrypts the events topic and the failures queue, and is what the functions' grants name. */
  readonly dataKey: DataKey;
  readonly functionLogs: FunctionLogs;
  readonly tracing: TraceWriting;
  /** TABLE_NAME, STAGE and the Powertools service name, shared with every function. */
  readonly environment: Readonly<Record<string, string>>;
  /** The API's public base URL without a trailing slash, which pay links in emails begin with. */
  readonly publicBaseUrl: string;
  /** Physical names (`emailResourceNames` and `queueNames` of lib/stack-name.ts). */
  readonly configurationSetName: string;
  readonly eventsTopicName: string;
  readonly sesEventsFailuresQueueName: string;
}

/**
 * Customer emails behind the mail queue (docs/decisions/email-infrastructure.md): the mailer, the
 * SES configuration set every email goes through, its events topic and the function that records
 * bounces, complaints, deliveries and rejects, the stage's sending identity where it has one, and
 * the alarms that say emails are stuck or the account's reputation is at risk.
 */
export class EmailPipeline extends Construct {
  readonly configurationSet: ses.ConfigurationSet;
  readonly eventsTopic: sns.Topic;
  readonly eventDestination: ses.ConfigurationSetEventDestination;
  /** Only where the stage file names one: what SES lets the stage send from. */
  readonly identity: ses.EmailIdentity | undefined;
  readonly mailer: ServiceFunction;
  readonly sesEvents: ServiceFunction;
  /** SES events the SES events function failed to record. */
  readonly sesEventsFailures: sqs.Queue;
  readonly alarms: {
    readonly mailDeadLetterQueueNotEmpty: cloudwatch.Alarm;
    readonly sesEventsFailuresNotEmpty: cloudwatch.Alarm;
    /** Only where the stage sends through SES. */
    readonly bounceRate: cloudwatch.Alarm | undefined;
    readonly complaintRate: cloudwatch.Alarm | undefined;
  };

  constructor(scope: Construct, id: string, props: EmailPipelineProps) {
    super(scope, id);
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: props.configurationSetName,
      reputationMetrics: true,
      sendingEnabled: true,
      // The suppression list applies to every email of the set: SES drops a send to an address that
      // bounced or complained before, whatever the mailer's own records say.
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      // An email holds a pay link; it never crosses the internet in the clear.
      tlsPolicy: ses.ConfigurationSetTlsPolicy.REQUIRE,
    });
    this.eventsTopic = new sns.Topic(this, 'EventsTopic', {
      topicName: props.eventsTopicName,
      displayName: props.eventsTopicName,
      masterKey: props.dataKey.key,
      enforceSSL: true,
    });
    this.eventDestination = this.publishEvents(props);
    this.identity =
      props.email.identity === undefined ? undefined : this.createIdentity(props.email.identity);
    this.mailer = this.createMailer(props);
    this.sesEventsFailures = this.failureStore(props);
    this.sesEvents = this.createSesEvents(props);
    this.alarms = this.createAlarms(props);
  }

  /** The configuration set's one event destination: the encrypted topic, for the four events. */
  private publishEvents(props: EmailPipelineProps): ses.ConfigurationSetEventDestination {
    const destination = this.configurationSet.addEventDestination('Events', {
      configurationSetEventDestinationName: 'events',
      destination: ses.EventDestination.snsTopic(this.eventsTopic),
      events: [...publishedEmailEvents],
    });
    // SES encrypts what it publishes to the topic with the topic's key, for this configuration set only.
    props.dataKey.allowPublishingService(
      'EmailEventsOfThisConfigurationSet',
      'ses.amazonaws.com',
      this.configurationSetArn(),
    );
    return destination;
  }

  /** A domain signed with Easy DKIM, or one address; every email it sends goes through the set. */
  private createIdentity(identity: EmailIdentityConfig): ses.EmailIdentity {
    const sesIdentity =
      identity.domain !== undefined ? ses.Identity.domain(identity.domain) : emailIdentityOf(identity);
    return new ses.EmailIdentity(this, 'Identity', {
      identity: sesIdentity,
      configurationSet: this.configurationSet,
    });
  }

  private pipelineFunction(
    props: EmailPipelineProps,
    fn: { id: string; nameSuffix: string; handlerModule: string; description: string; timeout: Duration },
    environment: Readonly<Record<string, string>>,
  ): ServiceFunction {
    return new ServiceFunction(this, fn.id, {
      functionName: functionName(props.namePrefix, fn.nameSuffix),
      handlerModule: fn.handlerModule,
      description: fn.description,
      environment: { ...props.environment, ...environment },
      timeout: fn.timeout,
      logs: props.functionLogs,
      tracing: props.tracing,
      // The queue and the topic sample nothing, so no invocation is traced.
      invocationTracing: InvocationTracing.callerDecides,
    });
  }

  /** Mailer: mail queue → one email per message, sent through SES or captured. */
  private createMailer(props: EmailPipelineProps): ServiceFunction {
    const { email, mailQueue } = props;
    const environment: MailerEnvironment = {
      MAIL_QUEUE_URL: mailQueue.queue.queueUrl,
      EMAIL_DELIVERY: email.delivery,
      EMAIL_FROM_ADDRESS: email.fromAddress,
      SES_CONFIGURATION_SET: this.configurationSet.configurationSetName,
      EMAILS_PER_MERCHANT_PER_HOUR: String(email.emailsPerMerchantPerHour),
      PUBLIC_BASE_URL: props.publicBaseUrl,
    };
    const mailer = this.pipelineFunction(
      props,
      {
        id: 'Mailer',
        nameSuffix: 'mailer',
        handlerModule: 'email/mailer-handler',
        description: `Mail queue consumer: renders each customer email and ${email.delivery === EmailDelivery.ses ? 'sends it through SES' : 'captures it, sending nothing'}`,
        timeout: mailerTimeout,
      },
      environment,
    );
    props.table.grantAccess(mailer.role, TableAccess.readWrite);
    // Its retries go back to its own queue with a delay.
    grantSend(mailQueue.queue, props.dataKey, mailer.role);
    mailer.function.addEventSource(
      new SqsEventSource(mailQueue.queue, {
        batchSize: mailerQueue.batchSize,
        maxBatchingWindow: mailerQueue.maxBatchingWindow,
        reportBatchItemFailures: true,
        maxConcurrency: mailerQueue.maxConcurrency,
      }),
    );
    if (email.delivery === EmailDelivery.ses) this.grantSendEmail(mailer.role, email.fromAddress);
    return mailer;
  }

  /**
   * `ses:SendEmail` from the stage's identity, through its configuration set, from its one address:
   * SES checks the identity and the configuration set of each send against the role's resources.
   * A capturing stage's mailer gets no SES action at all.
   */
  private grantSendEmail(role: iam.IRole, fromAddress: string): void {
    if (this.identity === undefined) {
      throw new Error('A stage that sends through SES needs an email identity in its stage file');
    }
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [this.identity.emailIdentityArn, this.configurationSetArn()],
        conditions: { StringEquals: { 'ses:FromAddress': fromAddress } },
      }),
    );
  }

  private configurationSetArn(): string {
    return Stack.of(this).formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
  }

  /** Kept in production, where its messages are the only record of events still to be recorded. */
  private failureStore(props: EmailPipelineProps): sqs.Queue {
    const queue = new sqs.Queue(this, 'SesEventsFailures', {
      queueName: props.sesEventsFailuresQueueName,
      ...encryptedQueueProps(props.dataKey),
      retentionPeriod: Duration.days(14),
      removalPolicy: props.settings.removalPolicy,
    });
    Validations.of(queue).acknowledge(
      { id: 'AwsSolutions-SQS3', reason: sesEventsFailuresReason },
      { id: 'cdk-validator-cfnguard::sqs_dlq_check', reason: `CT.SQS.PR.1: ${sesEventsFailuresReason}` },
    );
    return queue;
  }

  /** SES events: the topic → the email item's bounce, complaint, delivery or reject, and suppression. */
  private createSesEvents(props: EmailPipelineProps): ServiceFunction {
    const sesEvents = this.pipelineFunction(
      props,
      {
        id: 'SesEvents',
        nameSuffix: 'ses-events',
        handlerModule: 'email/ses-events-handler',
        description: 'Records the SES bounces, complaints, deliveries and rejects of customer emails',
        timeout: Duration.seconds(30),
      },
      {},
    );
    props.table.grantAccess(sesEvents.role, TableAccess.readWrite);
    this.eventsTopic.addSubscription(new subscriptions.LambdaSubscription(sesEvents.function));
    // SNS invokes asynchronously: after Lambda's retries an event lands in the failures queue
    // instead of being dropped.
    sesEvents.function.configureAsyncInvoke({
      retryAttempts: sesEventsRetryAttempts,
      onFailure: exactQueueDestination(this.sesEventsFailures, props.dataKey),
    });
    return sesEvents;
  }

  private createAlarms(props: EmailPipelineProps) {
    const sends = props.email.delivery === EmailDelivery.ses;
    return {
      mailDeadLetterQueueNotEmpty: this.queueNotEmptyAlarm(
        props.namePrefix,
        'MailDeadLetterQueueAlarm',
        'mail-dlq-not-empty',
        'Mail queue messages the mailer failed to process 5 times are parked in the mail dead-letter queue.',
        props.mailQueue.deadLetterQueue,
      ),
      sesEventsFailuresNotEmpty: this.queueNotEmptyAlarm(
        props.namePrefix,
        'SesEventsFailuresAlarm',
        'ses-events-failures-not-empty',
        'The SES events function failed to record SES bounce, complaint, delivery or reject events after its retries.',
        this.sesEventsFailures,
      ),
      bounceRate: sends
        ? this.reputationAlarm(props.namePrefix, 'BounceRateAlarm', 'email-bounce-rate', {
            metricName: 'Reputation.BounceRate',
            threshold: reputationThresholds.bounceRate,
            what: 'bounce rate',
          })
        : undefined,
      complaintRate: sends
        ? this.reputationAlarm(props.namePrefix, 'ComplaintRateAlarm', 'email-complaint-rate', {
            metricName: 'Reputation.ComplaintRate',
            threshold: reputationThresholds.complaintRate,
            what: 'complaint rate',
          })
        : undefined,
    };
  }

  /** The first visible message of a dead-letter store; an empty queue publishes no datapoint. */
  private queueNotEmptyAlarm(
    namePrefix: string,
    alarmId: string,
    nameSuffix: string,
    alarmDescription: string,
    queue: sqs.IQueue,
  ): cloudwatch.Alarm {
    return new cloudwatch.Alarm(this, alarmId, {
      alarmName: `${namePrefix}-${nameSuffix}`,
      alarmDescription,
      metric: queue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }

  /**
   * The account's own reputation rate, as SES publishes it (namespace AWS/SES, no dimension): the
   * figure SES itself reviews an account by, whatever configuration set sent the emails.
   */
  private reputationAlarm(
    namePrefix: string,
    alarmId: string,
    nameSuffix: string,
    rate: { metricName: string; threshold: number; what: string },
  ): cloudwatch.Alarm {
    return new cloudwatch.Alarm(this, alarmId, {
      alarmName: `${namePrefix}-${nameSuffix}`,
      alarmDescription:
        `The account's SES ${rate.what} reached ${rate.threshold * 100} %, where SES places an account ` +
        'under review and may pause its sending.',
      metric: new cloudwatch.Metric({
        namespace: 'AWS/SES',
        metricName: rate.metricName,
        period: reputationPeriod,
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: rate.threshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}

function emailIdentityOf(identity: EmailIdentityConfig): ses.Identity {
  if (identity.emailAddress === undefined) throw new Error('An email identity names a domain or an address');
  return ses.Identity.email(identity.emailAddress);
}
