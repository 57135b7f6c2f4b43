import { createHash, randomUUID } from 'node:crypto';
import type { SendMessageCommand, SendMessageCommandOutput } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

export interface DelayQueueOptions {
  /** The dispatcher, as its SQS event source mapping calls it. */
  // biome-ignore lint/suspicious/noConfusingVoidType: the result type of aws-lambda's SQSHandler
  handler: (event: SQSEvent) => Promise<SQSBatchResponse | undefined | void>;
  /** The queue's DelaySeconds (default 60; fractions allowed locally). */
  defaultDelaySeconds?: number | undefined;
  /** How long a failed message stays hidden, counted from its receive (default 30 s). */
  visibilityTimeoutSeconds?: number | undefined;
  /** Like the redrive policy (default 5). */
  maxReceiveCount?: number | undefined;
  /** Like the mapping's MaximumConcurrency (default 5). */
  maxConcurrency?: number | undefined;
  /** Default: one line on stderr with message ids, never bodies. */
  onError?: ((error: unknown, messageIds: string[]) => void) | undefined;
}

/** `reason`: the error's message, or that the handler reported the item. */
export type DeadLetter = { messageId: string; body: string; receiveCount: number; reason: string };

export const MaxDelaySeconds = 900;
const BatchSize = 10;
const QueueArn = 'arn:aws:sqs:us-east-1:000000000000:local-delivery-queue';

type Message = Omit<DeadLetter, 'reason'> & {
  sentAt: number;
  firstReceivedAt?: number;
  timer?: NodeJS.Timeout;
};

/**
 * The delivery queue and its event source mapping in process: a message waits out its delay on a
 * timer, then goes to `handler` in batches of up to 10. What failed (a throw: the batch;
 * `batchItemFailures`: those messages) is hidden until the visibility timeout after its receive and
 * dead-lettered after `maxReceiveCount` receives. Unlike SQS, no call that outlives it runs twice.
 */
export const createDelayQueue = (options: DelayQueueOptions) => new DelayQueue(options);

export class DelayQueue {
  private readonly messages = new Map<string, Message>();
  private readonly visible: Message[] = [];
  private readonly dead: DeadLetter[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly idleWaiters: (() => void)[] = [];
  private stopped = false;

  constructor(private readonly options: DelayQueueOptions) {}

  /** DelaySeconds 0–900, undefined for the queue's default; returns the message id. */
  send({ body, delaySeconds }: { body: string; delaySeconds?: number | undefined }): string {
    if (body.length === 0) throw new RangeError('MessageBody must be a non-empty string');
    const valid = delaySeconds === undefined || (Number.isInteger(delaySeconds) && delaySeconds >= 0);
    if (!valid || (delaySeconds ?? 0) > MaxDelaySeconds) {
      throw new RangeError(`DelaySeconds must be an integer 0…${MaxDelaySeconds}`);
    }
    return this.enqueue(body, (delaySeconds ?? this.options.defaultDelaySeconds ?? 60) * 1000);
  }

  /** Messages not yet deleted or dead-lettered: delayed, visible and in flight. */
  size = () => this.messages.size;
  deadLetters = () => [...this.dead];

  /** Every dead letter back as a new message, visible now and never received, as an SQS redrive does. */
  redriveDeadLetters(): number {
    if (this.stopped) throw new Error('the local delay queue is stopped');
    const moved = this.dead.splice(0);
    for (const letter of moved) this.enqueue(letter.body, 0);
    return moved.length;
  }

  /** Resolves when no handler call runs and no message is visible now (delayed ones may wait). */
  idle(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.idleWaiters.push(resolve);
      this.pump();
    });
  }

  /** Waits for running handler calls; pending messages end with the process. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const message of this.messages.values()) clearTimeout(message.timer);
    await Promise.allSettled([...this.running]);
    this.pump();
  }

  private enqueue(body: string, delayMs: number): string {
    if (this.stopped) throw new Error('the local delay queue is stopped');
    const message: Message = { messageId: randomUUID(), body, sentAt: Date.now(), receiveCount: 0 };
    this.messages.set(message.messageId, message);
    this.showAfter([message], delayMs);
    return message.messageId;
  }

  /** Due now is visible at once (a microtask pumps: fake timers need not move); a group shows together. */
  private showAfter(group: Message[], delayMs: number): void {
    if (delayMs > 0) {
      const timer = setTimeout(() => this.showAfter(group, 0), delayMs);
      for (const message of group) message.timer = timer;
      return;
    }
    this.visible.push(...group);
    queueMicrotask(() => this.pump());
  }

  private pump(): void {
    const { running, visible } = this;
    while (!this.stopped && running.size < (this.options.maxConcurrency ?? 5) && visible.length > 0) {
      const call = this.receive(visible.splice(0, BatchSize)).finally(() => {
        running.delete(call);
        this.pump();
      });
      running.add(call);
    }
    if (running.size === 0 && (this.stopped || visible.length === 0)) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  private async receive(batch: Message[]): Promise<void> {
    const receivedAt = Date.now();
    for (const message of batch) {
      message.receiveCount += 1;
      message.firstReceivedAt ??= receivedAt;
    }
    const ids = batch.map((message) => message.messageId);
    let failed: Set<string>;
    let reason = 'reported in batchItemFailures';
    try {
      const response = await this.options.handler({ Records: batch.map(toRecord) });
      failed = failedMessageIds(response || undefined, ids);
    } catch (error) {
      failed = new Set(ids);
      reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      (this.options.onError ?? logHandlerError)(error, ids);
    }
    const retried = batch.filter(({ messageId }) => failed.has(messageId));
    const hidden = retried.filter((message) => message.receiveCount < (this.options.maxReceiveCount ?? 5));
    for (const message of batch.filter((candidate) => !hidden.includes(candidate))) {
      this.messages.delete(message.messageId);
      if (retried.includes(message)) this.dead.push({ ...pick(message), reason });
    }
    const visibilityTimeoutMs = (this.options.visibilityTimeoutSeconds ?? 30) * 1000;
    if (hidden.length > 0 && !this.stopped)
      this.showAfter(hidden, receivedAt + visibilityTimeoutMs - Date.now());
  }
}

const pick = ({ messageId, body, receiveCount }: Message) => ({ messageId, body, receiveCount });

function toRecord(message: Message): SQSRecord {
  return {
    messageId: message.messageId,
    receiptHandle: randomUUID(),
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAt),
      SenderId: '000000000000',
      ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
    },
    messageAttributes: {},
    md5OfBody: md5(message.body),
    eventSource: 'aws:sqs',
    eventSourceARN: QueueArn,
    awsRegion: 'us-east-1',
  };
}

/**
 * Lambda's partial batch response for SQS: listed ids failed, the rest succeeded; an id that is not
 * in the batch, or a malformed response, fails the whole batch.
 */
function failedMessageIds(response: SQSBatchResponse | null | undefined, ids: string[]): Set<string> {
  const reported = response?.batchItemFailures;
  if (reported === undefined) return new Set();
  const failed = new Set(
    Array.isArray(reported) ? reported.map((item) => item?.itemIdentifier) : [undefined],
  );
  return [...failed].every((id) => id !== undefined && ids.includes(id))
    ? (failed as Set<string>)
    : new Set(ids);
}

function md5(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

function logHandlerError(error: unknown, messageIds: string[]): void {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  console.error(JSON.stringify({ level: 'ERROR', source: 'delay-queue', message, messageIds }));
}

/**
 * The part of `SQSClient` the router and reconciler use: a `SendMessageCommand` goes into `queue`
 * with its DelaySeconds, and is answered as SQS answers it.
 */
export function sqsClientFor(queue: DelayQueue) {
  return {
    async send(command: SendMessageCommand): Promise<SendMessageCommandOutput> {
      const body = command.input.MessageBody ?? '';
      const MessageId = queue.send({ body, delaySeconds: command.input.DelaySeconds });
      const $metadata = { httpStatusCode: 200, requestId: randomUUID(), attempts: 1, totalRetryDelay: 0 };
      return { $metadata, MessageId, MD5OfMessageBody: md5(body) };
    },
  };
}
