import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { DataKey } from './data-key';
import { encryptedQueueProps, maxReceiveCount, redrivenDeadLetterQueue } from './delivery-queue';

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
 * at once; a send SES left unsent after the SDK's retries is reported failed by the mailer and
 * comes back once its visibility timeout ends.
 */
export class MailQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: MailQueueProps) {
    super(scope, id);
    this.deadLetterQueue = redrivenDeadLetterQueue(this, props, 'mail queue');
    this.queue = new sqs.Queue(this, 'Queue', {
      queueName: props.queueName,
      // Six times the consumer's timeout, as for the delivery queue: a batch still being retried
      // inside the event source mapping never becomes visible to a second poller.
      visibilityTimeout: Duration.seconds(mailerTimeout.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      // The stage's key encrypts the messages, as it does all data at rest.
      ...encryptedQueueProps(props.dataKey),
      // The mailer records a refused send as failed and an unsent one for another try (3 at most),
      // so a message reaches the dead-letter queue only when the mailer itself keeps failing on it.
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount },
    });
  }
}
