import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type DataKey, DataKeyUse } from './data-key';

/** The dispatcher's Lambda timeout; the queue's visibility timeout is derived from it. */
export const dispatcherTimeout = Duration.seconds(30);

/** A failed attempt is retried after the queue's default delay. */
export const retryDelay = Duration.seconds(60);

/**
 * A failed webhook attempt is recorded and re-enqueued by the router as a new message, so a
 * message is received again only when the dispatcher itself crashed, timed out or was throttled.
 * Five receives ride out a transient outage (AWS's guidance for Lambda consumers) and still park a
 * poison message within minutes; the reconciler re-enqueues anything pending that went missing.
 */
export const maxReceiveCount = 5;

/**
 * How long SQS reuses a data key before asking KMS for another: SQS's maximum, so a busy queue
 * costs one KMS call per sender or receiver per day rather than per message batch.
 */
export const queueDataKeyReuse = Duration.hours(24);

/** Encryption every queue of the stack shares: the stage's data key, TLS only. */
export function encryptedQueueProps(dataKey: DataKey) {
  return {
    encryption: sqs.QueueEncryption.KMS,
    encryptionMasterKey: dataKey.key,
    dataKeyReuse: queueDataKeyReuse,
    enforceSSL: true,
  } as const;
}

/**
 * Exactly what a sender of an encrypted queue needs: SendMessage on it, and a data key from the
 * stage's key (no `kms:ReEncrypt*` or `kms:GenerateDataKey*` wildcards, unlike grantSendMessages).
 */
export function grantSend(queue: sqs.IQueue, dataKey: DataKey, grantee: iam.IGrantable): void {
  queue.grant(grantee, 'sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl');
  dataKey.grant(grantee, DataKeyUse.encryptDecrypt);
}

export interface DeliveryQueueProps {
  /** The queues' physical names (`queueNames` of lib/stack-name.ts), which the admin CLI looks up. */
  readonly queueName: string;
  readonly deadLetterQueueName: string;
  readonly dataKey: DataKey;
  /**
   * Whether the dead-letter queue outlives the stack: kept in production, where its messages are
   * deliveries still owed to merchants; the delivery queue itself is refilled by the reconciler.
   */
  readonly deadLetterRemovalPolicy: RemovalPolicy;
}

/**
 * The dead-letter queue of a work queue (`of` names it), kept 14 days, which only the operator's
 * redrive back into that queue reads.
 */
export function redrivenDeadLetterQueue(
  scope: Construct,
  props: { deadLetterQueueName: string; dataKey: DataKey; deadLetterRemovalPolicy: RemovalPolicy },
  of: string,
): sqs.Queue {
  const queue = new sqs.Queue(scope, 'DeadLetterQueue', {
    queueName: props.deadLetterQueueName,
    ...encryptedQueueProps(props.dataKey),
    retentionPeriod: Duration.days(14),
    removalPolicy: props.deadLetterRemovalPolicy,
  });
  Validations.of(queue).acknowledge({
    id: 'cdk-validator-cfnguard::sqs_dlq_check',
    reason:
      `CT.SQS.PR.1: this queue is the dead-letter queue of the ${of}. Nothing consumes it but ` +
      `the operator’s redrive back into the ${of}, so a dead-letter queue of its own would never fill.`,
  });
  return queue;
}

/** The webhook delivery queue (router → dispatcher) and its dead-letter queue. */
export class DeliveryQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: DeliveryQueueProps) {
    super(scope, id);
    this.deadLetterQueue = redrivenDeadLetterQueue(this, props, 'delivery queue');
    this.queue = new sqs.Queue(this, 'Queue', {
      queueName: props.queueName,
      deliveryDelay: retryDelay,
      // AWS recommends at least six times the consumer's timeout, so a batch still being retried
      // inside the event source mapping never becomes visible to a second poller.
      visibilityTimeout: Duration.seconds(dispatcherTimeout.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      // Messages only name a delivery (the dispatcher reads and signs the payload), so no secret
      // travels through SQS; the stage's key still encrypts them, as it does all data at rest.
      ...encryptedQueueProps(props.dataKey),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount },
    });
  }
}
