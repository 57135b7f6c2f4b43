import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { DataKey } from './data-key';
import { encryptedQueueProps, maxReceiveCount } from './delivery-queue';

/**
 * The mailer's Lambda timeout: one batch of ten emails, each one SES call and a few table writes,
 * sent concurrently, with room for SES's slowest answers. The queue's visibility timeout is derived
 * from it.
 */
export const mailerTimeout = Duration.seconds(30);

export interface MailQueueProps {
  /** The queues' physical names (`queueNames` of lib/stack-name.ts). */
  readonly queueName: string;
  readonly deadLetterQueueName: string;
  readonly dataKey: DataKey;
  /** Kept in production, where its messages are emails still owed to customers. */
  readonly deadLetterRemovalPolicy: RemovalPolicy;
}

/**
 * The customer email queue (router and reconciler → mailer) and its dead-letter queue, built as the
 * delivery queue is (lib/constructs/delivery-queue.ts). It has no default delay: a first send goes
 * at once, and the mailer sends its own retries back with the delay they need.
 */
export class MailQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: MailQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      queueName: props.deadLetterQueueName,
      ...encryptedQueueProps(props.dataKey),
      retentionPeriod: Duration.days(14),
      removalPolicy: props.deadLetterRemovalPolicy,
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'cdk-validator-cfnguard::sqs_dlq_check',
      reason:
        'CT.SQS.PR.1: this queue is the dead-letter queue of the mail queue. Nothing consumes it but the ' +
        'operator’s redrive back into the mail queue, so a dead-letter queue of its own would never fill.',
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      queueName: props.queueName,
      // Six times the consumer's timeout, as for the delivery queue: a batch still being retried
      // inside the event source mapping never becomes visible to a second poller.
      visibilityTimeout: Duration.seconds(mailerTimeout.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      // The stage's key encrypts the messages, as it does all data at rest.
      ...encryptedQueueProps(props.dataKey),
      // A failed send is recorded and re-sent by the mailer as a new message, so a message comes
      // back only when the mailer itself crashed, timed out or was throttled on it.
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount },
    });
  }
}
