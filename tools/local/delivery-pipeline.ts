import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { createDispatcher } from '../../functions/delivery/dispatcher';
import { createReconciler } from '../../functions/delivery/reconciler';
import { createRouter, isRoutedRecord } from '../../functions/delivery/router';
import { sendWebhook } from '../../functions/delivery/send-webhook';
import { sqsDeliveryQueue } from '../../functions/delivery/sqs-delivery-queue';
import { renderEndpointNotice } from '../../functions/email/endpoint-notice';
import { renderInvoiceEmail } from '../../functions/email/invoice-email';
import { sqsMailQueue } from '../../functions/email/mail-message';
import { createMailer } from '../../functions/email/mailer';
import { secretSealer } from '../../functions/secrets/secret-sealer-from-env';
import { createDelayQueue, type DelayQueue, type DelayQueueOptions, sqsClientFor } from './delay-queue';
import type { DynamoDbLocalTarget } from './dynamodb-local';
import { requeueWaitingDeliveries } from './requeue-waiting-deliveries';
import { sesLocalClient } from './ses-local';
import type { LocalSettings } from './settings';
import { startStreamPoller } from './stream-poller';

const queueUrl = 'http://local/queues/local-delivery-queue';
const mailQueueUrl = 'http://local/queues/local-mail-queue';

/** Where the local mailer sends from: the local inbox accepts any address. */
const localFromAddress = 'invoices@merchant-payments.example';

export interface DeliveryPipelineOptions {
  dynamodb: DynamoDbLocalTarget;
  tableName: string;
  settings: LocalSettings;
  log?: ((message: string) => void) | undefined;
  /** Sees every batch the queue hands the dispatcher, before the dispatcher does (the bench counts them). */
  onDispatcherBatch?: ((event: SQSEvent) => void) | undefined;
  /** Awaited before the router sees each stream batch, so a test can hold the stream back a while. */
  beforeRouting?: ((event: DynamoDBStreamEvent) => Promise<void>) | undefined;
  deliveryQueue?: LocalDeliveryQueueOptions | undefined;
  /** The local inbox the mailer sends to, and the public base URL its pay links name. */
  mail: { sesEndpoint: string; publicBaseUrl: string };
  /**
   * Asked before every attempt: a CA to trust besides Node's own, or undefined
   * (docs/decisions/local-webhooks-without-a-restart.md).
   */
  trustedCa?: (() => Promise<string | undefined>) | undefined;
}

/** A shorter redrive policy or visibility timeout, for tests that fill the dead-letter list. */
export type LocalDeliveryQueueOptions = Pick<
  DelayQueueOptions,
  'maxReceiveCount' | 'visibilityTimeoutSeconds'
>;

/**
 * The webhook half of the stack with the deployed code: stream → router (the mapping's filter) →
 * delay queue → dispatcher, and the reconciler every 60 s. Deliveries left waiting by the last
 * runtime are queued again before it resolves.
 */
export async function startDeliveryPipeline(options: DeliveryPipelineOptions) {
  const { settings, trustedCa } = options;
  const dispatcher = createDispatcher({
    send:
      trustedCa === undefined
        ? sendWebhook
        : async (request) => sendWebhook({ ...request, ca: await trustedCa() }),
    sealer: secretSealer,
    timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
    retryDelaySeconds: settings.WEBHOOK_RETRY_DELAY_SECONDS,
    allowLoopback: settings.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    leaseMarginMs: settings.WEBHOOK_LEASE_MARGIN_MS,
  });
  const delayQueue = createDelayQueue({
    handler: (event) => {
      options.onDispatcherBatch?.(event);
      return dispatcher(event);
    },
    defaultDelaySeconds: settings.WEBHOOK_RETRY_DELAY_SECONDS,
    // Longer than one attempt (the response timeout), as the deployed visibility timeout is.
    visibilityTimeoutSeconds:
      options.deliveryQueue?.visibilityTimeoutSeconds ?? Math.ceil(settings.WEBHOOK_TIMEOUT_MS / 1000) + 5,
    maxReceiveCount: options.deliveryQueue?.maxReceiveCount,
  });
  const queue = sqsDeliveryQueue(sqsClientFor(delayQueue), queueUrl);
  const mail = startMailer(options);
  const router = createRouter({ queue, mailQueue: mail.queue });
  const poller = await startStreamPoller({
    ...options.dynamodb,
    tableName: options.tableName,
    handler: async (event) => {
      await options.beforeRouting?.(event);
      return router(event);
    },
    filter: isRoutedRecord,
  });
  // After the poller took its stream position, so no change made from here on goes unrouted.
  await requeue(delayQueue, settings.WEBHOOK_RETRY_DELAY_SECONDS, options.log);
  const reconcile = createReconciler({ queue, mailQueue: mail.queue });
  const timer = setInterval(() => {
    reconcile().catch((error: unknown) => console.error('reconciler failed', (error as Error).name));
  }, 60_000).unref();
  return {
    drain: () => poller.drain(),
    deadLetterCount: () => delayQueue.deadLetters().length,
    redrive: () => delayQueue.redriveDeadLetters(),
    reconcileNow: () => reconcile(),
    stop: async () => {
      clearInterval(timer);
      await poller.stop();
      await delayQueue.stop();
      await mail.stop();
    },
  };
}

/**
 * The mail half: the mail queue and the mailer with the deployed code, sending through the SDK to
 * the local inbox whatever the stage (docs/emails.md).
 */
function startMailer(options: DeliveryPipelineOptions) {
  const ses = sesLocalClient(options.mail.sesEndpoint);
  const mailer = createMailer({
    sendEmail: (input) => ses.send(new SendEmailCommand(input)),
    delivery: 'ses',
    fromAddress: localFromAddress,
    emailsPerMerchantPerHour: options.settings.EMAILS_PER_MERCHANT_PER_HOUR,
    publicBaseUrl: options.mail.publicBaseUrl,
    render: renderInvoiceEmail,
    renderNotice: renderEndpointNotice,
  });
  const mailDelayQueue = createDelayQueue({
    handler: mailer,
    defaultDelaySeconds: 0,
    visibilityTimeoutSeconds: 70,
  });
  return {
    queue: sqsMailQueue(sqsClientFor(mailDelayQueue), mailQueueUrl),
    stop: async () => {
      await mailDelayQueue.stop();
      ses.destroy();
    },
  };
}

async function requeue(delayQueue: DelayQueue, retryDelaySeconds: number, log?: (message: string) => void) {
  const send = (message: object, delaySeconds: number) =>
    delayQueue.send({ body: JSON.stringify(message), delaySeconds });
  const { due, later } = await requeueWaitingDeliveries({ send, retryDelaySeconds });
  if (due + later > 0) log?.(`Resuming webhook deliveries that were waiting: ${due} due now, ${later} later`);
}
