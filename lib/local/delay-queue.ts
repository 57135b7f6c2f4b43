import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type {
  MessageAttributeValue,
  SendMessageBatchCommand,
  SendMessageBatchCommandOutput,
  SendMessageBatchRequest,
  SendMessageCommand,
  SendMessageCommandOutput,
  SendMessageRequest,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';

// biome-ignore lint/suspicious/noConfusingVoidType: the result type of aws-lambda's SQSHandler
export type QueueBatchResult = SQSBatchResponse | undefined | void;

/** What the dispatcher Lambda is to its SQS event source mapping. */
export type QueueBatchHandler = (event: SQSEvent) => Promise<QueueBatchResult>;

/** The time source; the default reads the global timers on every call, so vitest fake timers apply. */
export interface DelayQueueClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: DelayQueueClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface DelayQueueOptions {
  handler: QueueBatchHandler;
  /** The queue's DelaySeconds, used when a message names none (default 60; fractions allowed locally). */
  defaultDelaySeconds?: number | undefined;
  /** Messages per handler call, like the mapping's BatchSize (default 10). */
  batchSize?: number | undefined;
  /** How long a failed message stays hidden, counted from its receive (default 30 s). */
  visibilityTimeoutSeconds?: number | undefined;
  /** Receives before a message moves to the dead-letter list, like the redrive policy (default 5). */
  maxReceiveCount?: number | undefined;
  /** Handler calls running at once, like the mapping's MaximumConcurrency (default 5). */
  maxConcurrency?: number | undefined;
  onDeadLetter?: ((message: DeadLetter) => void) | undefined;
  /** Handler failures. Default: one line on stderr with message ids, never bodies. */
  onError?: ((error: unknown, context: { messageIds: string[] }) => void) | undefined;
  /** Names the queue in `eventSourceARN` (default `local-delivery-queue`). */
  queueName?: string | undefined;
  region?: string | undefined;
  clock?: DelayQueueClock | undefined;
}

export interface QueueMessageInput {
  body: string;
  /** 0–900; undefined means the queue's default delay. */
  delaySeconds?: number | undefined;
  /** The message id to use (default a random UUID). */
  id?: string | undefined;
  messageAttributes?: Record<string, MessageAttributeValue> | undefined;
}

export interface QueueBatchEntry extends Omit<QueueMessageInput, 'id'> {
  /** The batch entry id (SendMessageBatch `Id`), echoed in the result; not the message id. */
  id: string;
}

export interface QueueBatchResultEntries {
  successful: { id: string; messageId: string; md5OfBody: string; md5OfMessageAttributes?: string }[];
  failed: { id: string; code: string; message: string; senderFault: true }[];
}

export interface DeadLetter {
  messageId: string;
  body: string;
  messageAttributes: SQSMessageAttributes;
  receiveCount: number;
  sentTimestamp: number;
  deadLetteredAt: number;
  /** Why the last receive failed: the error's message, or that the handler reported the item. */
  reason: string;
}

export interface DelayQueue {
  readonly queueArn: string;
  /** Enqueues one message and returns its message id. */
  send(message: QueueMessageInput): string;
  /** Enqueues up to 10 messages; invalid entries are reported in `failed`, as SQS does. */
  sendBatch(entries: QueueBatchEntry[]): QueueBatchResultEntries;
  /** Messages not yet deleted or dead-lettered: delayed, visible and in flight. */
  size(): number;
  deadLetters(): DeadLetter[];
  /**
   * Moves every dead letter back into the queue as a new message, visible now and never received,
   * like an SQS redrive to the source queue; returns how many moved.
   */
  redriveDeadLetters(): number;
  /** Resolves when no handler call is running and no message is visible now (delayed ones may wait). */
  idle(): Promise<void>;
  /** Stops delivering, waits for running handler calls; pending messages are dropped with the process. */
  stop(): Promise<void>;
}

/** SQS error codes (the `name` of the SDK's exceptions) for the requests the local queue refuses. */
export class DelayQueueError extends Error {
  override name = 'DelayQueueError';
  readonly code: string;

  constructor(code: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/** SQS's longest DelaySeconds. */
export const MaxDelaySeconds = 900;
const MaxMessageBytes = 256 * 1024;
const MaxBatchEntries = 10;
const AccountId = '000000000000';

interface QueuedMessage {
  messageId: string;
  body: string;
  md5OfBody: string;
  messageAttributes: SQSMessageAttributes;
  md5OfMessageAttributes: string | undefined;
  sentAt: number;
  visibleAt: number;
  order: number;
  receiveCount: number;
  firstReceivedAt: number | undefined;
  receivedAt: number;
  inFlight: boolean;
}

/**
 * An in-process stand-in for the delivery queue and its Lambda event source mapping: honours
 * DelaySeconds, hands visible messages to `handler` in SQS-shaped batches, deletes what succeeded,
 * hides what failed (a thrown error fails the batch, `batchItemFailures` fail single messages)
 * for the visibility timeout, and dead-letters a message after `maxReceiveCount` receives.
 * Unlike SQS, a message whose handler call outlives the visibility timeout is not delivered twice.
 */
export function createDelayQueue(options: DelayQueueOptions): DelayQueue {
  const clock = options.clock ?? systemClock;
  const defaultDelayMs = seconds('defaultDelaySeconds', options.defaultDelaySeconds ?? 60, MaxDelaySeconds);
  const visibilityTimeoutMs = seconds(
    'visibilityTimeoutSeconds',
    options.visibilityTimeoutSeconds ?? 30,
    43_200,
  );
  const batchSize = integer('batchSize', options.batchSize ?? 10, 1, 10_000);
  const maxReceiveCount = integer('maxReceiveCount', options.maxReceiveCount ?? 5, 1, 1_000);
  const maxConcurrency = integer('maxConcurrency', options.maxConcurrency ?? 5, 1, 1_000);
  const region = options.region ?? 'us-east-1';
  const queueArn = `arn:aws:sqs:${region}:${AccountId}:${options.queueName ?? 'local-delivery-queue'}`;
  const onError = options.onError ?? logHandlerError;

  const messages = new Map<string, QueuedMessage>();
  // The MD5 of a dead letter's attributes is kept beside it, so a redriven message answers as it was sent.
  const dead: { letter: DeadLetter; md5OfMessageAttributes: string | undefined }[] = [];
  const running = new Set<Promise<void>>();
  const idleWaiters: (() => void)[] = [];
  let order = 0;
  let stopped = false;
  let pumpQueued = false;
  let timer: { handle: unknown; at: number } | undefined;

  function enqueue(input: QueueMessageInput, messageId: string) {
    const now = clock.now();
    const delayMs =
      input.delaySeconds === undefined ? defaultDelayMs : messageDelaySeconds(input.delaySeconds) * 1000;
    const attributes = input.messageAttributes ?? {};
    const message: QueuedMessage = {
      messageId,
      body: input.body,
      md5OfBody: md5(input.body),
      messageAttributes: toLambdaMessageAttributes(attributes),
      md5OfMessageAttributes:
        Object.keys(attributes).length > 0 ? md5OfMessageAttributes(attributes) : undefined,
      sentAt: now,
      visibleAt: now + delayMs,
      order: order++,
      receiveCount: 0,
      firstReceivedAt: undefined,
      receivedAt: 0,
      inFlight: false,
    };
    messages.set(messageId, message);
    schedulePump();
    return message;
  }

  function validate(input: QueueMessageInput): void {
    if (stopped) throw new DelayQueueError('QueueDoesNotExist', 'the local delay queue is stopped');
    if (typeof input.body !== 'string' || input.body.length === 0) {
      throw new DelayQueueError('MissingParameter', 'MessageBody must be a non-empty string');
    }
    if (Buffer.byteLength(input.body, 'utf8') > MaxMessageBytes) {
      throw new DelayQueueError('InvalidParameterValue', `MessageBody exceeds ${MaxMessageBytes} bytes`);
    }
    if (input.delaySeconds !== undefined) messageDelaySeconds(input.delaySeconds);
  }

  function schedulePump(): void {
    if (pumpQueued || stopped) return;
    pumpQueued = true;
    // A microtask, not a timer: deliveries due now must not depend on timers advancing (fake timers).
    queueMicrotask(() => {
      pumpQueued = false;
      pump();
    });
  }

  function pump(): void {
    if (stopped) return;
    const now = clock.now();
    while (running.size < maxConcurrency) {
      const batch = visibleMessages(now).slice(0, batchSize);
      if (batch.length === 0) break;
      for (const message of batch) {
        message.inFlight = true;
        message.receiveCount += 1;
        message.receivedAt = now;
        message.firstReceivedAt ??= now;
      }
      const call = invoke(batch).finally(() => {
        running.delete(call);
        schedulePump();
        notifyIdle();
      });
      running.add(call);
    }
    armTimer(now);
    notifyIdle();
  }

  function visibleMessages(now: number): QueuedMessage[] {
    return [...messages.values()]
      .filter((message) => !message.inFlight && message.visibleAt <= now)
      .sort((a, b) => a.visibleAt - b.visibleAt || a.order - b.order);
  }

  /** One timer, for the next message to become visible. */
  function armTimer(now: number): void {
    let next = Number.POSITIVE_INFINITY;
    for (const message of messages.values()) {
      if (!message.inFlight && message.visibleAt > now) next = Math.min(next, message.visibleAt);
    }
    if (timer && timer.at === next) return;
    if (timer) clock.clearTimeout(timer.handle);
    timer = undefined;
    if (next === Number.POSITIVE_INFINITY) return;
    const handle = clock.setTimeout(() => {
      timer = undefined;
      pump();
    }, next - now);
    timer = { handle, at: next };
  }

  async function invoke(batch: QueuedMessage[]): Promise<void> {
    const receiptHandles = batch.map(() => randomBytes(24).toString('base64url'));
    const event: SQSEvent = {
      Records: batch.map((message, index) => toRecord(message, receiptHandles[index])),
    };
    let failed: Set<string>;
    let reason = 'reported in batchItemFailures';
    try {
      failed = failedMessageIds(await options.handler(event), batch);
    } catch (error) {
      failed = new Set(batch.map((message) => message.messageId));
      reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      onError(error, { messageIds: [...failed] });
    }

    const now = clock.now();
    for (const message of batch) {
      message.inFlight = false;
      if (!failed.has(message.messageId)) {
        messages.delete(message.messageId);
      } else if (message.receiveCount >= maxReceiveCount) {
        messages.delete(message.messageId);
        deadLetter(message, now, reason);
      } else {
        message.visibleAt = Math.max(now, message.receivedAt + visibilityTimeoutMs);
      }
    }
  }

  function deadLetter(message: QueuedMessage, now: number, reason: string): void {
    const letter: DeadLetter = {
      messageId: message.messageId,
      body: message.body,
      messageAttributes: message.messageAttributes,
      receiveCount: message.receiveCount,
      sentTimestamp: message.sentAt,
      deadLetteredAt: now,
      reason,
    };
    dead.push({ letter, md5OfMessageAttributes: message.md5OfMessageAttributes });
    try {
      options.onDeadLetter?.(letter);
    } catch (error) {
      onError(error, { messageIds: [message.messageId] });
    }
  }

  function toRecord(message: QueuedMessage, receiptHandle = ''): SQSRecord {
    const record: SQSRecord = {
      messageId: message.messageId,
      receiptHandle,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: AccountId,
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt ?? message.receivedAt),
      },
      messageAttributes: structuredClone(message.messageAttributes),
      md5OfBody: message.md5OfBody,
      eventSource: 'aws:sqs',
      eventSourceARN: queueArn,
      awsRegion: region,
    };
    if (message.md5OfMessageAttributes) record.md5OfMessageAttributes = message.md5OfMessageAttributes;
    return record;
  }

  function isIdle(): boolean {
    if (running.size > 0) return false;
    if (stopped) return true;
    return visibleMessages(clock.now()).length === 0;
  }

  function notifyIdle(): void {
    if (idleWaiters.length === 0 || !isIdle()) return;
    for (const resolve of idleWaiters.splice(0)) resolve();
  }

  return {
    queueArn,
    send(message) {
      validate(message);
      if (message.id !== undefined && messages.has(message.id)) {
        throw new DelayQueueError('InvalidParameterValue', `message ${message.id} is already queued`);
      }
      return enqueue(message, message.id ?? randomUUID()).messageId;
    },
    sendBatch(entries) {
      validateBatch(entries);
      const result: QueueBatchResultEntries = { successful: [], failed: [] };
      for (const entry of entries) {
        try {
          validate(entry);
        } catch (error) {
          if (!(error instanceof DelayQueueError) || stopped) throw error;
          result.failed.push({ id: entry.id, code: error.code, message: error.message, senderFault: true });
          continue;
        }
        const queued = enqueue(entry, randomUUID());
        result.successful.push({
          id: entry.id,
          messageId: queued.messageId,
          md5OfBody: queued.md5OfBody,
          ...(queued.md5OfMessageAttributes ? { md5OfMessageAttributes: queued.md5OfMessageAttributes } : {}),
        });
      }
      return result;
    },
    size: () => messages.size,
    deadLetters: () => dead.map(({ letter }) => letter),
    redriveDeadLetters() {
      if (stopped) throw new DelayQueueError('QueueDoesNotExist', 'the local delay queue is stopped');
      const now = clock.now();
      const moved = dead.splice(0);
      for (const { letter, md5OfMessageAttributes } of moved) {
        const messageId = randomUUID();
        messages.set(messageId, {
          messageId,
          body: letter.body,
          md5OfBody: md5(letter.body),
          messageAttributes: letter.messageAttributes,
          md5OfMessageAttributes,
          sentAt: now,
          visibleAt: now,
          order: order++,
          receiveCount: 0,
          firstReceivedAt: undefined,
          receivedAt: 0,
          inFlight: false,
        });
      }
      schedulePump();
      return moved.length;
    },
    idle() {
      if (isIdle()) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    async stop() {
      stopped = true;
      if (timer) clock.clearTimeout(timer.handle);
      timer = undefined;
      await Promise.allSettled([...running]);
      notifyIdle();
    },
  };
}

/**
 * Lambda's partial batch response for SQS: listed ids failed, the rest succeeded; an id that is not
 * in the batch, or a malformed response, fails the whole batch.
 */
function failedMessageIds(response: QueueBatchResult, batch: QueuedMessage[]): Set<string> {
  const all = new Set(batch.map((message) => message.messageId));
  if (response === undefined || response === null || response.batchItemFailures === undefined)
    return new Set();
  if (!Array.isArray(response.batchItemFailures)) return all;
  const failed = new Set<string>();
  for (const item of response.batchItemFailures) {
    if (!item || !all.has(item.itemIdentifier)) return all;
    failed.add(item.itemIdentifier);
  }
  return failed;
}

function validateBatch(entries: QueueBatchEntry[]): void {
  if (entries.length === 0) throw new DelayQueueError('EmptyBatchRequest', 'the batch has no entries');
  if (entries.length > MaxBatchEntries) {
    throw new DelayQueueError(
      'TooManyEntriesInBatchRequest',
      `a batch holds at most ${MaxBatchEntries} entries`,
    );
  }
  const ids = new Set<string>();
  for (const entry of entries) {
    if (!/^[A-Za-z0-9_-]{1,80}$/.test(entry.id)) {
      throw new DelayQueueError('InvalidBatchEntryId', `invalid batch entry id: ${JSON.stringify(entry.id)}`);
    }
    if (ids.has(entry.id))
      throw new DelayQueueError('BatchEntryIdsNotDistinct', `duplicate entry id ${entry.id}`);
    ids.add(entry.id);
  }
  const total = entries.reduce((sum, entry) => sum + Buffer.byteLength(String(entry.body ?? ''), 'utf8'), 0);
  if (total > MaxMessageBytes) {
    throw new DelayQueueError('BatchRequestTooLong', `the batch's bodies exceed ${MaxMessageBytes} bytes`);
  }
}

function messageDelaySeconds(value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > MaxDelaySeconds) {
    throw new DelayQueueError(
      'InvalidParameterValue',
      `DelaySeconds must be an integer 0…${MaxDelaySeconds}`,
    );
  }
  return value;
}

function seconds(name: string, value: number, max: number): number {
  if (!Number.isFinite(value) || value < 0 || value > max) throw new RangeError(`${name} must be 0…${max}`);
  return value * 1000;
}

function integer(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`${name} must be ${min}…${max}`);
  return value;
}

function md5(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

function toLambdaMessageAttributes(attributes: Record<string, MessageAttributeValue>): SQSMessageAttributes {
  const converted: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(attributes)) {
    converted[name] = {
      dataType: value.DataType ?? 'String',
      stringListValues: [],
      binaryListValues: [],
      ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
      ...(value.BinaryValue !== undefined
        ? { binaryValue: Buffer.from(value.BinaryValue).toString('base64') }
        : {}),
    };
  }
  return converted;
}

/** SQS's MD5OfMessageAttributes: names sorted, each field length-prefixed, 1 = string, 2 = binary. */
function md5OfMessageAttributes(attributes: Record<string, MessageAttributeValue>): string {
  const hash = createHash('md5');
  const field = (bytes: Uint8Array) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length);
    hash.update(bytes);
  };
  for (const name of Object.keys(attributes).sort()) {
    const value = attributes[name];
    if (!value) continue;
    field(Buffer.from(name, 'utf8'));
    field(Buffer.from(value.DataType ?? '', 'utf8'));
    if (value.StringValue !== undefined) {
      hash.update(Buffer.from([1]));
      field(Buffer.from(value.StringValue, 'utf8'));
    } else if (value.BinaryValue !== undefined) {
      hash.update(Buffer.from([2]));
      field(value.BinaryValue);
    }
  }
  return hash.digest('hex');
}

function logHandlerError(error: unknown, context: { messageIds: string[] }): void {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  console.error(JSON.stringify({ level: 'ERROR', source: 'delay-queue', message, ...context }));
}

/** The part of `SQSClient` the handlers use, answered by a local delay queue. */
export interface LocalSqsClient {
  send(command: SendMessageCommand): Promise<SendMessageCommandOutput>;
  send(command: SendMessageBatchCommand): Promise<SendMessageBatchCommandOutput>;
}

/**
 * An SQS client look-alike for the local runtime: `SendMessageCommand` and
 * `SendMessageBatchCommand` go into `queue` with their DelaySeconds; other commands are refused.
 * With `queueUrl`, a command aimed at another queue fails like a missing queue would.
 */
export function sqsClientFor(queue: DelayQueue, options: { queueUrl?: string } = {}): LocalSqsClient {
  const checkQueueUrl = (queueUrl: string | undefined) => {
    if (options.queueUrl !== undefined && queueUrl !== options.queueUrl) {
      throw new DelayQueueError('QueueDoesNotExist', `no local queue at ${String(queueUrl)}`);
    }
  };

  async function send(
    command: SendMessageCommand | SendMessageBatchCommand,
  ): Promise<SendMessageCommandOutput | SendMessageBatchCommandOutput> {
    const input: SendMessageRequest | SendMessageBatchRequest | undefined = command?.input;
    if (input && 'Entries' in input) {
      checkQueueUrl(input.QueueUrl);
      return sendBatchRequest(queue, input);
    }
    if (input && 'MessageBody' in input) {
      checkQueueUrl(input.QueueUrl);
      return sendMessageRequest(queue, input);
    }
    const name = (command as { constructor?: { name?: string } }).constructor?.name ?? 'this command';
    throw new DelayQueueError('UnsupportedOperation', `the local delay queue does not support ${name}`);
  }
  // One implementation behind both overloads: the input's shape says which command it is.
  return { send: send as LocalSqsClient['send'] };
}

function responseMetadata() {
  return { httpStatusCode: 200, requestId: randomUUID(), attempts: 1, totalRetryDelay: 0 };
}

function sendMessageRequest(queue: DelayQueue, input: SendMessageRequest): SendMessageCommandOutput {
  const body = input.MessageBody ?? '';
  const messageId = queue.send({
    body,
    delaySeconds: input.DelaySeconds,
    messageAttributes: input.MessageAttributes,
  });
  const attributes = input.MessageAttributes ?? {};
  return {
    $metadata: responseMetadata(),
    MessageId: messageId,
    MD5OfMessageBody: md5(body),
    ...(Object.keys(attributes).length > 0
      ? { MD5OfMessageAttributes: md5OfMessageAttributes(attributes) }
      : {}),
  };
}

function sendBatchRequest(queue: DelayQueue, input: SendMessageBatchRequest): SendMessageBatchCommandOutput {
  const result = queue.sendBatch(
    (input.Entries ?? []).map((entry) => ({
      id: entry.Id ?? '',
      body: entry.MessageBody ?? '',
      delaySeconds: entry.DelaySeconds,
      messageAttributes: entry.MessageAttributes,
    })),
  );
  return {
    $metadata: responseMetadata(),
    Successful: result.successful.map((entry) => ({
      Id: entry.id,
      MessageId: entry.messageId,
      MD5OfMessageBody: entry.md5OfBody,
      ...(entry.md5OfMessageAttributes ? { MD5OfMessageAttributes: entry.md5OfMessageAttributes } : {}),
    })),
    Failed: result.failed.map((entry) => ({
      Id: entry.id,
      Code: entry.code,
      Message: entry.message,
      SenderFault: entry.senderFault,
    })),
  };
}
