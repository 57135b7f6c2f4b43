import { SQSClient } from '@aws-sdk/client-sqs';
import { functionEnvironment } from '../config';
import { createRouter } from './router';
import { sqsDeliveryQueue } from './sqs-delivery-queue';

const queueUrl = functionEnvironment().DELIVERY_QUEUE_URL;
if (queueUrl === undefined) throw new Error('DELIVERY_QUEUE_URL is not set');

export const handler = createRouter({ queue: sqsDeliveryQueue(new SQSClient({}), queueUrl) });
