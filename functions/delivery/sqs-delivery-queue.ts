import {
  SendMessageCommand,
  type SendMessageCommandInput,
  type SendMessageCommandOutput,
} from '@aws-sdk/client-sqs';
import type { DeliveryMessage, DeliveryQueue } from './delivery-message';

/** Anything that sends SendMessageCommand: the SDK's SQSClient, or the local delay queue's adapter. */
export interface SendsSqsMessages {
  send(command: SendMessageCommand): Promise<SendMessageCommandOutput>;
}

/**
 * A queue its messages go to as JSON; `delaySeconds` undefined leaves the queue's default delay.
 * The delivery queue and the mail queue are both sent to through it.
 */
export function sqsJsonQueue<Message>(client: SendsSqsMessages, queueUrl: string) {
  return {
    async send(message: Message, delaySeconds?: number) {
      const input: SendMessageCommandInput = {
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify(message),
        ...(delaySeconds === undefined ? {} : { DelaySeconds: delaySeconds }),
      };
      await client.send(new SendMessageCommand(input));
    },
  };
}

export function sqsDeliveryQueue(client: SendsSqsMessages, queueUrl: string): DeliveryQueue {
  return sqsJsonQueue<DeliveryMessage>(client, queueUrl);
}
