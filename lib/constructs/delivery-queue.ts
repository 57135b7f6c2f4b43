import { Duration } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** The dispatcher's Lambda timeout; the queue's visibility timeout is derived from it. */
export const dispatcherTimeout = Duration.seconds(30);

/** DESIGN §1: a failed attempt is retried after the queue's default delay. */
export const retryDelay = Duration.seconds(60);

/**
 * A failed webhook attempt is recorded and re-enqueued by the router as a new message, so a
 * message is received again only when the dispatcher itself crashed, timed out or was throttled.
 * Five receives ride out a transient outage (AWS's guidance for Lambda consumers) and still park a
 * poison message within minutes; the reconciler re-enqueues anything pending that went missing.
 */
export const maxReceiveCount = 5;

/** The webhook delivery queue (router → dispatcher) and its dead-letter queue. */
export class DeliveryQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      deliveryDelay: retryDelay,
      // AWS recommends at least six times the consumer's timeout, so a batch still being retried
      // inside the event source mapping never becomes visible to a second poller.
      visibilityTimeout: Duration.seconds(dispatcherTimeout.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      // SQS-managed SSE needs no key grants on the router and dispatcher roles; messages only name
      // a delivery (the dispatcher reads and signs the payload), so no secret travels through SQS.
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount },
    });
  }
}
