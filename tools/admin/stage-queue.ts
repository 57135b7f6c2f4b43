import { GetQueueUrlCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Stage } from '../../functions/config';
import { stackName } from '../../lib/stack-name';
import { AdminError } from './operations';

/** A stage queue's URL, found by its fixed name; a missing queue says which stack to look for. */
export async function stageQueueUrl(client: SQSClient, queueName: string, stage: Stage): Promise<string> {
  let queueUrl: string | undefined;
  try {
    ({ QueueUrl: queueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: queueName })));
  } catch (error) {
    if ((error as Error).name !== 'QueueDoesNotExist') throw error;
    throw new AdminError(
      `no queue named ${queueName} in this account and region: is the stack ${stackName(stage)} deployed there?`,
      { cause: error },
    );
  }
  if (queueUrl === undefined) throw new AdminError(`SQS answered no URL for the queue ${queueName}`);
  return queueUrl;
}
