import type { DynamoDBRecord } from 'aws-lambda';
import { createDispatcher } from '../../functions/delivery/dispatcher';
import { createReconciler } from '../../functions/delivery/reconciler';
import { createRouter, routedEntityTypes } from '../../functions/delivery/router';
import { sendWebhook } from '../../functions/delivery/send-webhook';
import { sqsDeliveryQueue } from '../../functions/delivery/sqs-delivery-queue';
import { secretSealer } from '../../functions/secrets/secret-sealer-from-env';
import { createDelayQueue, sqsClientFor } from './delay-queue';
import type { LocalSettings } from './settings';
import { startStreamPoller } from './stream-poller';

const queueUrl = 'http://local/queues/local-delivery-queue';

/**
 * The webhook half of the stack on this machine, with the deployed code: the table's stream →
 * router → a delay queue (default delay = the retry delay) → dispatcher, and the reconciler on a
 * timer. The stream filter matches the event source mapping's filter criteria.
 */
export async function startDeliveryPipeline(options: {
  dynamodbEndpoint: string;
  tableName: string;
  settings: LocalSettings;
  reconcileEverySeconds?: number;
}) {
  const { settings } = options;
  const dispatcher = createDispatcher({
    send: sendWebhook,
    sealer: secretSealer,
    timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
    retryDelaySeconds: settings.WEBHOOK_RETRY_DELAY_SECONDS,
    allowLoopback: settings.WEBHOOK_ALLOW_PRIVATE_TARGETS,
  });
  const delayQueue = createDelayQueue({
    handler: dispatcher,
    defaultDelaySeconds: settings.WEBHOOK_RETRY_DELAY_SECONDS,
    // Longer than one attempt (the response timeout), as the deployed visibility timeout is.
    visibilityTimeoutSeconds: Math.ceil(settings.WEBHOOK_TIMEOUT_MS / 1000) + 5,
  });
  const queue = sqsDeliveryQueue(sqsClientFor(delayQueue, { queueUrl }), queueUrl);
  const routed: readonly string[] = routedEntityTypes;
  const poller = await startStreamPoller({
    endpoint: options.dynamodbEndpoint,
    tableName: options.tableName,
    handler: createRouter({ queue }),
    filter: (record: DynamoDBRecord) => {
      const image = record.dynamodb?.NewImage ?? record.dynamodb?.OldImage;
      return routed.includes(String(image?.entityType?.S));
    },
  });
  const reconcile = createReconciler({ queue });
  const timer = setInterval(
    () => {
      reconcile().catch((error: unknown) => console.error('reconciler failed', (error as Error).name));
    },
    (options.reconcileEverySeconds ?? 60) * 1000,
  );
  timer.unref();
  return {
    /** Resolves once every stream record written so far has been routed. */
    drain: () => poller.drain(),
    stop: async () => {
      clearInterval(timer);
      await poller.stop();
      await delayQueue.stop();
    },
  };
}
