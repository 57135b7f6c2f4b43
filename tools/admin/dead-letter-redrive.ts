import {
  GetQueueAttributesCommand,
  SQSClient,
  StartMessageMoveTaskCommand,
  type StartMessageMoveTaskCommandInput,
} from '@aws-sdk/client-sqs';
import type { Stage } from '../../functions/config';
import { queueNames, stackName } from '../../lib/stack-name';
import { OperatorRoutes } from '../local/operator-channel';
import { callLocalOperator } from './local-operator';
import { AdminError } from './operations';
import { stageQueueUrl } from './stage-queue';
import type { AdminTarget } from './target';

/** What `queues redrive --stage` started: SQS moves the messages in the background. */
export interface StartedRedrive {
  readonly taskHandle: string;
  readonly source: string;
  readonly destination: string;
  readonly approximateMessages: number;
}

/**
 * Moves the delivery dead-letter queue back into the delivery queue: on a stage an SQS message move
 * task, locally the running runtime's delay queue over its operator channel.
 */
export async function redriveDeliveryDeadLetters(target: AdminTarget): Promise<object> {
  if (target.stateDir !== undefined) return callLocalOperator(target.stateDir, OperatorRoutes.redrive);
  const client = new SQSClient({});
  try {
    return await startStageRedrive(client, target.stage);
  } finally {
    client.destroy();
  }
}

/** Both ARNs are named, so the messages go to the delivery queue and nowhere else. */
export function buildStartMessageMoveTask(
  sourceArn: string,
  destinationArn: string,
): StartMessageMoveTaskCommandInput {
  return { SourceArn: sourceArn, DestinationArn: destinationArn };
}

export async function startStageRedrive(client: SQSClient, stage: Stage): Promise<StartedRedrive> {
  const names = queueNames(stackName(stage));
  const source = await queueOf(client, names.deliveryDeadLetters, stage);
  const destination = await queueOf(client, names.delivery, stage);
  const { TaskHandle } = await client.send(
    new StartMessageMoveTaskCommand(buildStartMessageMoveTask(source.arn, destination.arn)),
  );
  if (TaskHandle === undefined) throw new AdminError('SQS started a message move task without a task handle');
  return {
    taskHandle: TaskHandle,
    source: names.deliveryDeadLetters,
    destination: names.delivery,
    approximateMessages: source.approximateMessages,
  };
}

/** A queue's ARN and message count, found by its fixed name (GetQueueUrl, then its attributes). */
async function queueOf(client: SQSClient, queueName: string, stage: Stage) {
  const queueUrl = await stageQueueUrl(client, queueName, stage);
  const { Attributes = {} } = await client.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['QueueArn', 'ApproximateNumberOfMessages'],
    }),
  );
  if (Attributes.QueueArn === undefined) throw new AdminError(`queue ${queueName} has no QueueArn attribute`);
  return {
    arn: Attributes.QueueArn,
    approximateMessages: Number(Attributes.ApproximateNumberOfMessages ?? 0),
  };
}
