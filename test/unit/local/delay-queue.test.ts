import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createDelayQueue,
  type DelayQueue,
  type DelayQueueOptions,
  sqsClientFor,
} from '../../../tools/local/delay-queue';

/** Records every handler call; `respond` decides each call's outcome. */
function recorder(respond: (event: SQSEvent) => SQSBatchResponse | undefined = () => undefined) {
  const calls: SQSRecord[][] = [];
  const handler = vi.fn(async (event: SQSEvent) => {
    calls.push(event.Records);
    return respond(event);
  });
  return { calls, handler, bodies: () => calls.map((records) => records.map((record) => record.body)) };
}

const queues: DelayQueue[] = [];
function queue(options: DelayQueueOptions): DelayQueue {
  const created = createDelayQueue({ onError: () => {}, ...options });
  queues.push(created);
  return created;
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
});

afterEach(async () => {
  await Promise.all(queues.splice(0).map((created) => created.stop()));
  vi.useRealTimers();
});

describe('createDelayQueue', () => {
  it('delivers a message without DelaySeconds only after the default delay of 60 s', async () => {
    const { calls, handler } = recorder();
    const delivery = queue({ handler });

    delivery.send({ body: 'hello' });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);

    expect(calls).toHaveLength(1);
    expect(delivery.size()).toBe(0);
  });

  it('delivers a message sent with DelaySeconds 0 at once', async () => {
    const { calls, handler } = recorder();
    const delivery = queue({ handler });

    delivery.send({ body: 'now', delaySeconds: 0 });
    await delivery.idle();

    expect(calls).toHaveLength(1);
  });

  it('honours a DelaySeconds other than the default and a configured default delay', async () => {
    const { bodies, handler } = recorder();
    const delivery = queue({ handler, defaultDelaySeconds: 2 });

    delivery.send({ body: 'in-5s', delaySeconds: 5 });
    delivery.send({ body: 'default-2s' });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(bodies()).toEqual([['default-2s']]);
    await vi.advanceTimersByTimeAsync(3_000);

    expect(bodies()).toEqual([['default-2s'], ['in-5s']]);
  });

  it('hands the handler SQS-shaped records as the Lambda event source mapping does', async () => {
    const { calls, handler } = recorder();
    const delivery = queue({ handler });

    const messageId = delivery.send({ body: 'hello', delaySeconds: 0 });
    await delivery.idle();

    const sentAt = String(Date.parse('2030-01-01T00:00:00Z'));
    expect(calls[0]).toEqual([
      {
        messageId,
        receiptHandle: expect.any(String),
        body: 'hello',
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: sentAt,
          SenderId: expect.any(String),
          ApproximateFirstReceiveTimestamp: sentAt,
        },
        messageAttributes: {},
        md5OfBody: '5d41402abc4b2a76b9719d911017c592',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:local-delivery-queue',
        awsRegion: 'us-east-1',
      },
    ]);
  });

  it('delivers at most batchSize visible messages per handler call', async () => {
    const { calls, handler } = recorder();
    const delivery = queue({ handler, maxConcurrency: 1 });

    for (let index = 0; index < 12; index++) delivery.send({ body: `m${index}`, delaySeconds: 0 });
    await delivery.idle();

    expect(calls.map((records) => records.length)).toEqual([10, 2]);
  });

  it('redelivers only the messages in batchItemFailures, after the visibility timeout, with ApproximateReceiveCount increased', async () => {
    const { calls, bodies, handler } = recorder((event) => ({
      batchItemFailures: event.Records.filter(
        (record) => record.body === 'fails-once' && record.attributes.ApproximateReceiveCount === '1',
      ).map((record) => ({ itemIdentifier: record.messageId })),
    }));
    const delivery = queue({ handler, visibilityTimeoutSeconds: 30 });

    delivery.send({ body: 'ok', delaySeconds: 0 });
    const failing = delivery.send({ body: 'fails-once', delaySeconds: 0 });
    await delivery.idle();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(bodies()).toEqual([['ok', 'fails-once']]);
    await vi.advanceTimersByTimeAsync(1);

    expect(bodies()).toEqual([['ok', 'fails-once'], ['fails-once']]);
    expect(calls[1]?.[0]).toMatchObject({ messageId: failing, attributes: { ApproximateReceiveCount: '2' } });
    expect(calls[1]?.[0]?.receiptHandle).not.toBe(calls[0]?.[1]?.receiptHandle);
    expect(delivery.size()).toBe(0);
  });

  it.each([
    {
      when: 'the handler throws',
      firstAnswer: (): SQSBatchResponse => {
        throw new Error('dispatcher crashed');
      },
      visibilityTimeoutSeconds: 10,
    },
    {
      when: 'batchItemFailures names a message that is not in it',
      firstAnswer: (): SQSBatchResponse => ({ batchItemFailures: [{ itemIdentifier: 'not-in-batch' }] }),
      visibilityTimeoutSeconds: 1,
    },
  ])(
    'retries the whole batch after the visibility timeout when $when',
    async ({ firstAnswer, visibilityTimeoutSeconds }) => {
      let calls = 0;
      const { bodies, handler } = recorder(() => (calls++ === 0 ? firstAnswer() : undefined));
      const delivery = queue({ handler, visibilityTimeoutSeconds });

      delivery.send({ body: 'first', delaySeconds: 0 });
      delivery.send({ body: 'second', delaySeconds: 0 });
      await delivery.idle();
      await vi.advanceTimersByTimeAsync(visibilityTimeoutSeconds * 1000);

      expect(bodies()).toEqual([
        ['first', 'second'],
        ['first', 'second'],
      ]);
      expect(delivery.size()).toBe(0);
    },
  );

  it('moves a message to the dead letters after maxReceiveCount failed receives', async () => {
    const { calls, handler } = recorder((event) => ({
      batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })),
    }));
    const delivery = queue({ handler, maxReceiveCount: 3, visibilityTimeoutSeconds: 30 });

    const messageId = delivery.send({ body: 'poison', delaySeconds: 0 });
    await delivery.idle();
    await vi.advanceTimersByTimeAsync(10 * 30_000);

    expect(calls.map((records) => records[0]?.attributes.ApproximateReceiveCount)).toEqual(['1', '2', '3']);
    expect(delivery.deadLetters()).toEqual([
      { messageId, body: 'poison', receiveCount: 3, reason: 'reported in batchItemFailures' },
    ]);
    expect(delivery.size()).toBe(0);
  });

  it('redriveDeadLetters moves every dead letter back as a new message, visible at once, never received', async () => {
    let failing = true;
    const { calls, handler } = recorder((event) =>
      failing
        ? { batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })) }
        : undefined,
    );
    const delivery = queue({ handler, maxReceiveCount: 2, visibilityTimeoutSeconds: 30 });
    const poisonId = delivery.send({ body: 'poison', delaySeconds: 0 });
    delivery.send({ body: 'second', delaySeconds: 0 });
    await vi.advanceTimersByTimeAsync(10 * 30_000);
    expect(delivery.deadLetters()).toHaveLength(2);
    const received = calls.length;

    failing = false;
    expect(delivery.redriveDeadLetters()).toBe(2);
    expect(delivery.deadLetters()).toEqual([]);
    expect(delivery.size()).toBe(2);
    await delivery.idle();

    const redriven = calls.slice(received).flat();
    expect(redriven.map((record) => record.body).sort()).toEqual(['poison', 'second']);
    expect(redriven.map((record) => record.attributes.ApproximateReceiveCount)).toEqual(['1', '1']);
    const poison = redriven.find((record) => record.body === 'poison');
    expect(poison?.messageId).not.toBe(poisonId);
    expect(delivery.size()).toBe(0);
    expect(delivery.redriveDeadLetters()).toBe(0);
  });

  it('redriveDeadLetters is refused once the queue is stopped', async () => {
    const delivery = queue({ handler: async () => undefined });
    await delivery.stop();
    expect(() => delivery.redriveDeadLetters()).toThrow(/stopped/);
  });

  it('refuses DelaySeconds outside 0–900 and an empty body', () => {
    const delivery = queue({ handler: async () => undefined });
    delivery.send({ body: 'first' });

    expect(() => delivery.send({ body: 'x', delaySeconds: 901 })).toThrow(/DelaySeconds/);
    expect(() => delivery.send({ body: 'x', delaySeconds: -1 })).toThrow(/DelaySeconds/);
    expect(() => delivery.send({ body: 'x', delaySeconds: 1.5 })).toThrow(/DelaySeconds/);
    expect(() => delivery.send({ body: '' })).toThrow(/MessageBody/);
    expect(delivery.size()).toBe(1);
  });

  it('resolves idle() while messages are still delayed, and counts them in size()', async () => {
    const { calls, handler } = recorder();
    const delivery = queue({ handler });

    delivery.send({ body: 'later' });
    await delivery.idle();

    expect(calls).toHaveLength(0);
    expect(delivery.size()).toBe(1);
  });

  it('stop() waits for the running handler call and delivers nothing afterwards', async () => {
    let release = () => {};
    const handler = vi.fn(() => new Promise<undefined>((resolve) => (release = () => resolve(undefined))));
    const delivery = queue({ handler });

    delivery.send({ body: 'running', delaySeconds: 0 });
    delivery.send({ body: 'delayed', delaySeconds: 5 });
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = delivery.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    await vi.advanceTimersByTimeAsync(10_000);

    expect(handler).toHaveBeenCalledTimes(1);
    expect(() => delivery.send({ body: 'after stop' })).toThrow(/stopped/);
  });
});

describe('sqsClientFor', () => {
  it('enqueues a SendMessageCommand with its DelaySeconds and answers like SQS', async () => {
    const { calls, handler } = recorder();
    const delivery = queue({ handler });
    const sqs = sqsClientFor(delivery);

    const output = await sqs.send(
      new SendMessageCommand({ QueueUrl: 'http://local/queue', MessageBody: 'hello', DelaySeconds: 0 }),
    );
    await delivery.idle();

    expect(output).toMatchObject({
      $metadata: { httpStatusCode: 200 },
      MessageId: calls[0]?.[0]?.messageId,
      MD5OfMessageBody: '5d41402abc4b2a76b9719d911017c592',
    });
    expect(calls[0]?.[0]?.body).toBe('hello');
  });

  it('uses the queue default delay for a SendMessageCommand without DelaySeconds', async () => {
    const { calls, handler } = recorder();
    const delivery = queue({ handler, defaultDelaySeconds: 60 });

    await sqsClientFor(delivery).send(new SendMessageCommand({ QueueUrl: 'q', MessageBody: 'retry' }));
    await vi.advanceTimersByTimeAsync(59_000);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1_000);

    expect(calls).toHaveLength(1);
  });
});
