import {
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  DeleteMessageCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { routerBatchSize } from '../../../functions/delivery/router';
import { replayVisibilitySeconds } from '../../../tools/admin/router-replay';
import { ExitCode } from '../../../tools/cli/command-failure';
import { runAdminInProcess } from '../../support/admin-in-process';
import { invokePayload, mockAwsClient, queueDoesNotExist } from '../../support/aws-client-mocks';

const sqs = mockAwsClient(SQSClient);
const lambda = mockAwsClient(LambdaClient);
const streams = mockAwsClient(DynamoDBStreamsClient);

const queueUrl =
  'https://sqs.eu-west-1.amazonaws.com/123456789012/MerchantPayments-production-router-failures';
const streamArn =
  'arn:aws:dynamodb:eu-west-1:123456789012:table/merchant-payments-production/stream/2026-01-01T00:00:00.000';
const shardId = 'shardId-00000001700000000000-0123abcd';
/** What a record image holds and no output may show. */
const secretPayload = 'card-holder-name-in-a-payload';

/** Sequence numbers as DynamoDB writes them: 21+ digits, compared as numbers. */
const seq = (n: number) => `4000000000000000000${String(n).padStart(4, '0')}`;

/** A stream record of an event item (routed) or of another item (filtered out), as GetRecords returns it. */
function streamRecord(n: number, entityType = 'Event'): StreamRecord {
  return {
    eventID: `id-${n}`,
    eventName: 'INSERT',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-west-1',
    dynamodb: {
      ApproximateCreationDateTime: new Date('2026-11-22T12:00:00Z'),
      Keys: { PK: { S: `EVENT#${n}` }, SK: { S: 'EVENT' } },
      NewImage: {
        PK: { S: `EVENT#${n}` },
        SK: { S: 'EVENT' },
        entityType: { S: entityType },
        payload: { M: { note: { S: secretPayload } } },
      },
      SequenceNumber: seq(n),
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

/** The body Lambda sends the on-failure destination for a batch of the records `from`…`to`. */
function failureBody(from: number, to: number) {
  return JSON.stringify({
    requestContext: {
      requestId: 'c9f0…',
      functionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:MerchantPayments-production-router',
      condition: 'RetryAttemptsExhausted',
      approximateInvokeCount: 11,
    },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    version: '1.0',
    timestamp: '2026-11-22T12:05:00.000Z',
    DDBStreamBatchInfo: {
      shardId,
      startSequenceNumber: seq(from),
      endSequenceNumber: seq(to),
      approximateArrivalOfFirstRecord: '2026-11-22T12:00:00Z',
      approximateArrivalOfLastRecord: '2026-11-22T12:00:00Z',
      batchSize: to - from + 1,
      streamArn,
    },
  });
}

/** The queue holds these messages: one receive returns them, every later one nothing. */
function queueHolds(...bodies: string[]) {
  sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: queueUrl });
  sqs
    .on(ReceiveMessageCommand)
    .resolvesOnce({
      Messages: bodies.map((body, index) => ({
        MessageId: `m-${index + 1}`,
        ReceiptHandle: `receipt-${index + 1}`,
        Body: body,
      })),
    })
    .resolves({});
  sqs.on(DeleteMessageCommand).resolves({});
}

/**
 * The open shard holds `records`, answered in pages of `pageSize`: an iterator is the index of the
 * next record to read, and AT_SEQUENCE_NUMBER points at the record of that number.
 */
function shardHolds(records: StreamRecord[], pageSize = 1000) {
  streams.on(GetShardIteratorCommand).callsFake((input: { SequenceNumber?: string }) => {
    const index = records.findIndex((record) => record.dynamodb?.SequenceNumber === input.SequenceNumber);
    return { ShardIterator: `iterator-${index === -1 ? records.length : index}` };
  });
  streams.on(GetRecordsCommand).callsFake((input: { ShardIterator?: string }) => {
    const index = Number(input.ShardIterator?.slice('iterator-'.length));
    return {
      Records: records.slice(index, index + pageSize),
      NextShardIterator: `iterator-${Math.min(index + pageSize, records.length)}`,
    };
  });
}

function routerAnswers(answer: unknown, functionError?: string) {
  lambda.on(InvokeCommand).resolves({
    StatusCode: 200,
    Payload: invokePayload(answer),
    ...(functionError === undefined ? {} : { FunctionError: functionError }),
  });
}

/** The events the router was invoked with. */
function invokedEvents(): DynamoDBStreamEvent[] {
  return lambda
    .commandCalls(InvokeCommand)
    .map((call) => JSON.parse(new TextDecoder().decode(call.args[0].input.Payload as Uint8Array)));
}

const sequencesOf = (event: DynamoDBStreamEvent | undefined) =>
  (event?.Records ?? []).map((record) => record.dynamodb?.SequenceNumber);

async function replay(...args: string[]) {
  const result = await runAdminInProcess(
    ['router', 'replay', '--stage', 'production', '--json', ...args],
    {},
  );
  expect(result.stderr).toBe('');
  expect(result.code).toBe(ExitCode.ok);
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stdout).not.toContain(secretPayload);
  return JSON.parse(result.stdout);
}

describe('router replay --stage', () => {
  it('invokes the router with the message’s records as the stream mapping delivers them, then deletes the message', async () => {
    queueHolds(failureBody(2, 3));
    shardHolds([streamRecord(2), streamRecord(3), streamRecord(4)]);
    routerAnswers({ batchItemFailures: [] });

    const result = await replay();

    expect(result).toEqual({
      queue: 'MerchantPayments-production-router-failures',
      function: 'MerchantPayments-production-router',
      read: 1,
      replayed: 1,
      expired: 0,
      failed: 0,
      messages: [
        {
          messageId: 'm-1',
          shardId,
          startSequenceNumber: seq(2),
          endSequenceNumber: seq(3),
          condition: 'RetryAttemptsExhausted',
          outcome: 'replayed',
          records: 2,
        },
      ],
    });
    expect(sqs.commandCalls(ReceiveMessageCommand)[0]?.args[0].input).toEqual({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 0,
      VisibilityTimeout: replayVisibilitySeconds,
    });
    expect(streams.commandCalls(GetShardIteratorCommand).map((call) => call.args[0].input)).toEqual([
      {
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: 'AT_SEQUENCE_NUMBER',
        SequenceNumber: seq(2),
      },
    ]);
    const [invocation] = lambda.commandCalls(InvokeCommand);
    expect(invocation?.args[0].input).toMatchObject({
      FunctionName: 'MerchantPayments-production-router',
      InvocationType: 'RequestResponse',
    });
    const [event] = invokedEvents();
    expect(sequencesOf(event)).toEqual([seq(2), seq(3)]);
    expect(event?.Records[0]).toEqual({
      eventID: 'id-2',
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'eu-west-1',
      eventSourceARN: streamArn,
      dynamodb: {
        ApproximateCreationDateTime: Date.parse('2026-11-22T12:00:00Z') / 1000,
        Keys: { PK: { S: 'EVENT#2' }, SK: { S: 'EVENT' } },
        NewImage: {
          PK: { S: 'EVENT#2' },
          SK: { S: 'EVENT' },
          entityType: { S: 'Event' },
          payload: { M: { note: { S: secretPayload } } },
        },
        SequenceNumber: seq(2),
        SizeBytes: 100,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    });
    expect(sqs.commandCalls(DeleteMessageCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: queueUrl, ReceiptHandle: 'receipt-1' },
    ]);
  });

  it('keeps the message and names the record when the router reports a batch item failure', async () => {
    queueHolds(failureBody(2, 3));
    shardHolds([streamRecord(2), streamRecord(3)]);
    routerAnswers({ batchItemFailures: [{ itemIdentifier: seq(3) }] });

    const result = await replay();

    expect(result).toMatchObject({ read: 1, replayed: 0, expired: 0, failed: 1 });
    expect(result.messages[0]).toMatchObject({
      outcome: 'failed',
      records: 2,
      reason: `the router reported record ${seq(3)} as not routed`,
    });
    expect(sqs.commandCalls(DeleteMessageCommand)).toHaveLength(0);
  });

  it('keeps the message and names the function error, not its message, when the router fails', async () => {
    queueHolds(failureBody(2, 2));
    shardHolds([streamRecord(2)]);
    routerAnswers(
      { errorType: 'ConditionalCheckFailedException', errorMessage: `item ${secretPayload}`, trace: [] },
      'Unhandled',
    );

    const result = await replay();

    expect(result.messages[0]).toMatchObject({
      outcome: 'failed',
      reason: 'the router failed (Unhandled): ConditionalCheckFailedException',
    });
    expect(sqs.commandCalls(DeleteMessageCommand)).toHaveLength(0);
  });

  it('reports the message expired and keeps it when the stream has trimmed its records', async () => {
    queueHolds(failureBody(2, 3));
    streams
      .on(GetShardIteratorCommand)
      .rejects(new TrimmedDataAccessException({ message: 'trimmed', $metadata: {} }));

    const result = await replay();

    expect(result).toMatchObject({ read: 1, replayed: 0, expired: 1, failed: 0 });
    expect(result.messages[0]).toEqual({
      messageId: 'm-1',
      shardId,
      startSequenceNumber: seq(2),
      endSequenceNumber: seq(3),
      condition: 'RetryAttemptsExhausted',
      outcome: 'expired',
      reason: 'TrimmedDataAccessException',
    });
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
    expect(sqs.commandCalls(DeleteMessageCommand)).toHaveLength(0);
  });

  it('reports the message expired and keeps it when the stream has no record at its range', async () => {
    queueHolds(failureBody(2, 3));
    shardHolds([]);

    const result = await replay();

    expect(result.messages[0]).toMatchObject({ outcome: 'expired' });
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
    expect(sqs.commandCalls(DeleteMessageCommand)).toHaveLength(0);
  });

  it('reads GetRecords pages until the end sequence number, and no further', async () => {
    queueHolds(failureBody(1, 4));
    shardHolds([streamRecord(1), streamRecord(2), streamRecord(3), streamRecord(4), streamRecord(5)], 2);
    routerAnswers({ batchItemFailures: [] });

    const result = await replay();

    expect(result.messages[0]).toMatchObject({ outcome: 'replayed', records: 4 });
    expect(streams.commandCalls(GetRecordsCommand).map((call) => call.args[0].input.ShardIterator)).toEqual([
      'iterator-0',
      'iterator-2',
    ]);
    expect(invokedEvents().map(sequencesOf)).toEqual([[seq(1), seq(2), seq(3), seq(4)]]);
  });

  it('hands the router only the records the stream mapping’s filter lets through', async () => {
    queueHolds(failureBody(1, 3));
    shardHolds([streamRecord(1), streamRecord(2, 'Invoice'), streamRecord(3, 'WebhookDelivery')]);
    routerAnswers({ batchItemFailures: [] });

    const result = await replay();

    expect(result.messages[0]).toMatchObject({ outcome: 'replayed', records: 2 });
    expect(invokedEvents().map(sequencesOf)).toEqual([[seq(1), seq(3)]]);
  });

  it('invokes the router with at most the mapping’s batch size of records at a time', async () => {
    const count = routerBatchSize + 1;
    queueHolds(failureBody(1, count));
    shardHolds(Array.from({ length: count }, (_, index) => streamRecord(index + 1)));
    routerAnswers({ batchItemFailures: [] });

    await replay();

    expect(invokedEvents().map((event) => event.Records.length)).toEqual([routerBatchSize, 1]);
  });

  it('keeps a message that is not a stream on-failure record', async () => {
    queueHolds('{"hello":"world"}');

    const result = await replay();

    expect(result.messages).toEqual([
      {
        messageId: 'm-1',
        outcome: 'failed',
        reason:
          'not a stream on-failure record: no DDBStreamBatchInfo with a shard, sequence numbers and a stream ARN',
      },
    ]);
    expect(sqs.commandCalls(DeleteMessageCommand)).toHaveLength(0);
  });

  it('reads at most --limit messages', async () => {
    queueHolds(failureBody(1, 1), failureBody(2, 2), failureBody(3, 3));
    shardHolds([streamRecord(1), streamRecord(2), streamRecord(3)]);
    routerAnswers({ batchItemFailures: [] });

    const result = await replay('--limit', '2');

    expect(sqs.commandCalls(ReceiveMessageCommand)[0]?.args[0].input.MaxNumberOfMessages).toBe(2);
    expect(result).toMatchObject({ read: 2, replayed: 2 });
    expect(sqs.commandCalls(DeleteMessageCommand)).toHaveLength(2);
  });

  it('stops after a few receives bring nothing new, reporting an empty queue as nothing read', async () => {
    sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: queueUrl });
    sqs.on(ReceiveMessageCommand).resolves({});

    const result = await replay();

    expect(result).toMatchObject({ read: 0, replayed: 0, expired: 0, failed: 0, messages: [] });
    expect(sqs.commandCalls(ReceiveMessageCommand)).toHaveLength(3);
  });

  it('says in one line that the queue is missing, and replays nothing', async () => {
    sqs.on(GetQueueUrlCommand).rejects(queueDoesNotExist());

    const result = await runAdminInProcess(['router', 'replay', '--stage', 'sandbox'], {});

    expect(result).toEqual({
      code: ExitCode.failed,
      stdout: '',
      stderr:
        'error: no queue named MerchantPayments-sandbox-router-failures in this account and region: is the stack MerchantPayments-sandbox deployed there?\n',
    });
  });
});

describe('router replay usage errors', () => {
  it.each([
    [['--stage', 'sandbox', '--limit', '0'], '--limit must be a whole number from 1 to 100, not "0"'],
    [['--stage', 'sandbox', '--limit', '101'], '--limit must be a whole number from 1 to 100, not "101"'],
    [['--stage', 'sandbox', '--limit', 'ten'], '--limit must be a whole number from 1 to 100, not "ten"'],
    [
      ['--local'],
      "router replay takes --stage sandbox|production, not --local: the local runtime's stream poller has no failure queue",
    ],
    [
      ['--local', '--stage', 'sandbox'],
      "router replay takes --stage sandbox|production, not --local: the local runtime's stream poller has no failure queue",
    ],
    [[], 'router replay needs --stage sandbox|production'],
    [['--stage', 'sandbox', '--table', 't'], '--table is not an option of router replay'],
  ])(
    'exits 2 for %j with one line "error: %s" and the command’s form, before any call',
    async (args, message) => {
      const result = await runAdminInProcess(['router', 'replay', ...args], {});

      expect(result.code).toBe(ExitCode.usage);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `error: ${message} (usage: npm run -s admin -- router replay [--limit N] --stage sandbox|production [--json]; npm run -s admin -- --help for details)\n`,
      );
      expect(sqs.calls()).toHaveLength(0);
    },
  );
});
