import { SQSClient } from '@aws-sdk/client-sqs';
import { functionEnvironment } from '../config';
import { sqsMailQueue } from '../email/mail-message';
import { createReconciler } from './reconciler';
import { sqsDeliveryQueue } from './sqs-delivery-queue';

const { DELIVERY_QUEUE_URL: queueUrl, MAIL_QUEUE_URL: mailQueueUrl } = functionEnvironment();
if (queueUrl === undefined) throw new Error('DELIVERY_QUEUE_URL is not set');
if (mailQueueUrl === undefined) throw new Error('MAIL_QUEUE_URL is not set');

const sqs = new SQSClient({});

export const handler = createReconciler({
  queue: sqsDeliveryQueue(sqs, queueUrl),
  mailQueue: sqsMailQueue(sqs, mailQueueUrl),
});
