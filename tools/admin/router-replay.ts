import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { type InvokeCommandInput, LambdaClient } from '@aws-sdk/client-lambda';
import {
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  type ReceiveMessageCommandInput,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { DynamoDBRecord } from 'aws-lambda';
import type { Stage } from '../../functions/config';
import { isRoutedRecord, routerBatchSize } from '../../functions/delivery/router';
import { functionName, queueNames, stackName } from '../../lib/stack-name';
import { oneLine } from '../cli/command-failure';
import { AdminError } from './operations';
import { type InvocationAnswer, invokeStageFunction } from './stage-function';
import { stageQueueUrl } from './stage-queue';
import { parseStreamFailureRecord } from './stream-failure-record';
import { readStreamRange } from './stream-range';
import type { AdminTarget } from './target';

/** `--limit`: messages read in one run. */
export const replayLimit = { default: 10, max: 100 } as const;

/**
 * A received message stays hidden this long: a kept one is not read twice in one run (each page of
 * up to ten is replayed before the next is received, and a router invocation lasts at most 60 s),
 * and is back in the queue, for its alarm and the next run, five minutes later.
 */
export const replayVisibilitySeconds = 300;

/**
 * Short polls sample some of the queue's servers, so one can come back empty while messages wait:
 * the run stops after this many receives in a row bring no message it has not seen.
 */
const emptyReceivesBeforeStop = 3;

export const ReplayOutcome = { replayed: 'replayed', expired: 'expired', failed: 'failed' } as const;
export type ReplayOutcome = (typeof ReplayOutcome)[keyof typeof ReplayOutcome];

/** One failure message and what became of it; never a record's image (it may hold a payload). */
export interface ReplayedMessage {
  readonly messageId: string | undefined;
  readonly shardId?: string;
  readonly startSequenceNumber?: string;
  readonly endSequenceNumber?: string;
  /** Why Lambda gave up on the batch: `RetryAttemptsExhausted`, `RecordAgeExceeded`, … */
  readonly condition?: string;
  readonly outcome: ReplayOutcome;
  /** Records of the range handed to the router. */
  readonly records?: number;
  /** Why the message was kept in the queue. */
  readonly reason?: string;
}

export interface RouterReplay {
  readonly queue: string;
  readonly function: string;
  readonly read: number;
  readonly replayed: number;
  readonly expired: number;
  readonly failed: number;
  readonly messages: ReplayedMessage[];
}

export interface ReplayClients {
  readonly sqs: SQSClient;
  readonly lambda: LambdaClient;
  readonly streams: DynamoDBStreamsClient;
}

/** `router replay --stage`: the stage's SQS queue, table stream and router function, with the standard credential chain. */
export function replayRouterFailures(limit: number) {
  return async (target: AdminTarget): Promise<RouterReplay> => {
    // The command line refuses --local; the local runtime's stream poller has no failure queue.
    if (target.stateDir !== undefined) throw new AdminError('router replay acts on a deployed stage only');
    const clients = {
      sqs: new SQSClient({}),
      lambda: new LambdaClient({}),
      streams: new DynamoDBStreamsClient({}),
    };
    try {
      return await replayStageRouterFailures(clients, target.stage, limit);
    } finally {
      clients.sqs.destroy();
      clients.lambda.destroy();
      clients.streams.destroy();
    }
  };
}

/** A short poll (no wait), each message hidden while the run replays it. */
export function buildReceiveFailures(queueUrl: string, count: number): ReceiveMessageCommandInput {
  return {
    QueueUrl: queueUrl,
    MaxNumberOfMessages: Math.min(count, 10),
    WaitTimeSeconds: 0,
    VisibilityTimeout: replayVisibilitySeconds,
  };
}

/** RequestResponse with the event the stream mapping would deliver, so the router's answer is read. */
export function buildInvokeRouter(stage: Stage, records: readonly DynamoDBRecord[]): InvokeCommandInput {
  return {
    FunctionName: functionName(stackName(stage), 'router'),
    InvocationType: 'RequestResponse',
    Payload: new TextEncoder().encode(JSON.stringify({ Records: records })),
  };
}

/**
 * Replays up to `limit` messages of the stage's router-failures queue: each message's records are
 * read from the table's stream and handed to the router as the stream mapping would; a message is
 * deleted once the router routed every one of them, and kept otherwise.
 */
export async function replayStageRouterFailures(
  clients: ReplayClients,
  stage: Stage,
  limit: number,
): Promise<RouterReplay> {
  const queue = queueNames(stackName(stage)).routerFailures;
  const queueUrl = await stageQueueUrl(clients.sqs, queue, stage);
  const seen = new Set<string | undefined>();
  const messages: ReplayedMessage[] = [];
  for (let emptyReceives = 0; messages.length < limit && emptyReceives < emptyReceivesBeforeStop; ) {
    const { Messages = [] } = await clients.sqs.send(
      new ReceiveMessageCommand(buildReceiveFailures(queueUrl, limit - messages.length)),
    );
    const fresh = Messages.filter((message) => !seen.has(message.MessageId));
    emptyReceives = fresh.length === 0 ? emptyReceives + 1 : 0;
    for (const message of fresh.slice(0, limit - messages.length)) {
      seen.add(message.MessageId);
      messages.push(await replayMessage(clients, stage, queueUrl, message));
    }
  }
  const count = (outcome: ReplayOutcome) => messages.filter((message) => message.outcome === outcome).length;
  return {
    queue,
    function: functionName(stackName(stage), 'router'),
    read: messages.length,
    replayed: count(ReplayOutcome.replayed),
    expired: count(ReplayOutcome.expired),
    failed: count(ReplayOutcome.failed),
    messages,
  };
}

async function replayMessage(
  clients: ReplayClients,
  stage: Stage,
  queueUrl: string,
  message: Message,
): Promise<ReplayedMessage> {
  const batch = parseStreamFailureRecord(message.Body);
  if (batch === undefined) {
    return {
      messageId: message.MessageId,
      outcome: ReplayOutcome.failed,
      reason:
        'not a stream on-failure record: no DDBStreamBatchInfo with a shard, sequence numbers and a stream ARN',
    };
  }
  const { shardId, startSequenceNumber, endSequenceNumber, condition } = batch;
  const where = {
    messageId: message.MessageId,
    shardId,
    startSequenceNumber,
    endSequenceNumber,
    ...(condition === undefined ? {} : { condition }),
  };
  const failed = (reason: string, records?: number) => ({
    ...where,
    outcome: ReplayOutcome.failed,
    ...(records === undefined ? {} : { records }),
    reason,
  });
  try {
    const range = await readStreamRange(clients.streams, batch);
    if (range.kind === 'expired') return { ...where, outcome: ReplayOutcome.expired, reason: range.reason };
    if (range.kind === 'incomplete') {
      return failed(`the stream gave no record past ${range.lastSequenceNumber}: run again`);
    }
    // The stream mapping's filter, so the router sees exactly what it was given the first time.
    const records = range.records.filter(isRoutedRecord);
    for (let from = 0; from < records.length; from += routerBatchSize) {
      const chunk = records.slice(from, from + routerBatchSize);
      const refusal = refusalOf(
        await invokeStageFunction(clients.lambda, buildInvokeRouter(stage, chunk), stage),
      );
      if (refusal !== undefined) return failed(refusal, records.length);
    }
    try {
      await clients.sqs.send(
        new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }),
      );
    } catch (error) {
      // Harmless to replay again: the router is idempotent.
      return failed(`replayed, but the message was not deleted: ${errorLine(error)}`, records.length);
    }
    return { ...where, outcome: ReplayOutcome.replayed, records: records.length };
  } catch (error) {
    // A missing function ends the run; any other error is this message's.
    if (error instanceof AdminError) throw error;
    return failed(errorLine(error));
  }
}

function errorLine(error: unknown): string {
  const { name, message } = error instanceof Error ? error : new Error(String(error));
  return oneLine(`${name}: ${message}`);
}

/**
 * Why the router did not route every record: its error type (never its message, which may quote a
 * record), or the first record it reported (ReportBatchItemFailures). Undefined when it routed all.
 */
function refusalOf({ functionError, payload }: InvocationAnswer): string | undefined {
  if (functionError !== undefined) {
    const { errorType } = (payload ?? {}) as { errorType?: unknown };
    return `the router failed (${functionError})${typeof errorType === 'string' ? `: ${errorType}` : ''}`;
  }
  const { batchItemFailures } = (payload ?? {}) as { batchItemFailures?: unknown };
  if (!Array.isArray(batchItemFailures) || batchItemFailures.length === 0) return undefined;
  const first = (batchItemFailures[0] ?? {}) as { itemIdentifier?: unknown };
  return `the router reported record ${String(first.itemIdentifier)} as not routed`;
}
