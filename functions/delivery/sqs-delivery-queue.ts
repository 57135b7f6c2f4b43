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

export function sqsDeliveryQueue(client: SendsSqsMessages, queueUrl: string): DeliveryQueue {
  return {
    async send(message: DeliveryMessage, delaySeconds: 0 | undefined) {
      const input: SendMessageCommandInput = {
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify(message),
        ...(delaySeconds === undefined ? {} : { DelaySeconds: delaySeconds }),
      };
      await client.send(new SendMessageCommand(input));
    },
  };
}
