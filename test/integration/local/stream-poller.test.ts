import {
  CreateTableCommand,
  DeleteItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTableInput } from '../../../functions/store/table';
import {
  type StreamBatchResult,
  type StreamPoller,
  type StreamPollerErrorContext,
  type StreamPollerOptions,
  startStreamPoller,
} from '../../../tools/local/stream-poller';
import {
  createTestTable,
  deleteTestTable,
  testDynamoDbAccessKeyId,
  testDynamoDbClient,
  testDynamoDbEndpoint,
} from '../../support/dynamodb';

let tableName: string;
const pollers: StreamPoller[] = [];

beforeEach(async () => {
  tableName = await createTestTable('stream-poller');
});

afterEach(async () => {
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
  await deleteTestTable(tableName);
});

/** A poller on this test's table that records every batch it hands to the handler. */
async function poll(
  respond: (event: DynamoDBStreamEvent, call: number) => StreamBatchResult = () => undefined,
  options: Partial<StreamPollerOptions> = {},
) {
  const batches: DynamoDBRecord[][] = [];
  const errors: StreamPollerErrorContext[] = [];
  const poller = await startStreamPoller({
    endpoint: testDynamoDbEndpoint(),
    accessKeyId: testDynamoDbAccessKeyId(),
    tableName,
    pollIntervalMs: 20,
    retryBackoffMs: 10,
    onError: (_error, context) => errors.push(context),
    handler: async (event) => {
      batches.push(event.Records);
      return respond(event, batches.length);
    },
    ...options,
  });
  pollers.push(poller);
  return {
    poller,
    batches,
    errors,
    keysOf: (batch: DynamoDBRecord[] | undefined) => (batch ?? []).map(skOf),
  };
}

function skOf(record: DynamoDBRecord): string | undefined {
  return record.dynamodb?.Keys?.SK?.S;
}

async function putItems(count: number, from = 1): Promise<void> {
  for (let index = from; index < from + count; index++) {
    await testDynamoDbClient().send(
      new PutItemCommand({ TableName: tableName, Item: { PK: { S: 'P' }, SK: { S: `r${index}` } } }),
    );
  }
}

function failed(...records: (DynamoDBRecord | undefined)[]): DynamoDBBatchResponse {
  return {
    batchItemFailures: records.map((record) => ({ itemIdentifier: record?.dynamodb?.SequenceNumber ?? '' })),
  };
}

describe('startStreamPoller', () => {
  it('delivers puts, updates and deletes as INSERT, MODIFY and REMOVE records in the Lambda event shape', async () => {
    const { poller, batches } = await poll();
    const key = { PK: { S: 'MERCHANT#1' }, SK: { S: 'EVENT#1' } };
    const dynamodb = testDynamoDbClient();

    await dynamodb.send(
      new PutItemCommand({
        TableName: tableName,
        Item: {
          ...key,
          status: { S: 'pending' },
          attempts: { N: '0' },
          raw: { B: Uint8Array.from([1, 2, 3]) },
        },
      }),
    );
    await dynamodb.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET #status = :status',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': { S: 'sent' } },
      }),
    );
    await dynamodb.send(new DeleteItemCommand({ TableName: tableName, Key: key }));
    await poller.drain();

    const records = batches.flat();
    expect(records.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
    const [insert, modify, remove] = records;
    const inserted = { ...key, status: { S: 'pending' }, attempts: { N: '0' }, raw: { B: 'AQID' } };
    const updated = { ...inserted, status: { S: 'sent' } };
    expect(insert).toEqual({
      eventID: expect.any(String),
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      dynamodb: {
        ApproximateCreationDateTime: expect.any(Number),
        Keys: key,
        NewImage: inserted,
        SequenceNumber: expect.stringMatching(/^\d+$/),
        SizeBytes: expect.any(Number),
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
      eventSourceARN: poller.streamArn,
    });
    expect(modify?.dynamodb).toMatchObject({ OldImage: inserted, NewImage: updated });
    expect(remove?.dynamodb).toMatchObject({ Keys: key, OldImage: updated });
    expect(remove?.dynamodb).not.toHaveProperty('NewImage');
    expect(Math.abs((insert?.dynamodb?.ApproximateCreationDateTime ?? 0) - Date.now() / 1000)).toBeLessThan(
      120,
    );
  });

  it('starts at the latest record: what was written before start is not delivered', async () => {
    await putItems(2);
    const { poller, batches, keysOf } = await poll();

    await putItems(1, 3);
    await poller.drain();

    expect(batches.map(keysOf)).toEqual([['r3']]);
  });

  it("with from: 'trim_horizon' delivers the stream from its oldest record, in order, in batches of at most batchSize", async () => {
    await putItems(7);

    const { poller, batches, keysOf } = await poll(undefined, { from: 'trim_horizon', batchSize: 3 });
    await poller.drain();

    expect(batches.map(keysOf)).toEqual([['r1', 'r2', 'r3'], ['r4', 'r5', 'r6'], ['r7']]);
  });

  it('never delivers records the filter rejects, as event source filter criteria do', async () => {
    const { poller, batches, keysOf } = await poll(undefined, {
      filter: (record) => record.eventName === 'INSERT' && skOf(record) !== 'r2',
    });

    await putItems(3);
    await testDynamoDbClient().send(
      new DeleteItemCommand({ TableName: tableName, Key: { PK: { S: 'P' }, SK: { S: 'r1' } } }),
    );
    await poller.drain();

    expect(batches.flatMap(keysOf)).toEqual(['r1', 'r3']);
  });

  it('retries the same batch when the handler throws, then moves on', async () => {
    await putItems(3);
    const { poller, batches, keysOf, errors } = await poll(
      (_event, call) => {
        if (call === 1) throw new Error('router crashed');
        return undefined;
      },
      { from: 'trim_horizon' },
    );

    await poller.drain();
    await putItems(1, 4);
    await poller.drain();

    expect(batches.map(keysOf)).toEqual([['r1', 'r2', 'r3'], ['r1', 'r2', 'r3'], ['r4']]);
    expect(errors).toEqual([
      expect.objectContaining({ stage: 'handler', attempt: 1, recordCount: 3, discarded: false }),
    ]);
  });

  it('after batchItemFailures redelivers from the first failed record on, never the records before it', async () => {
    await putItems(5);
    const { poller, batches, keysOf } = await poll(
      (event, call) => (call === 1 ? failed(event.Records[4], event.Records[2]) : undefined),
      { from: 'trim_horizon' },
    );

    await poller.drain();

    expect(batches.map(keysOf)).toEqual([
      ['r1', 'r2', 'r3', 'r4', 'r5'],
      ['r3', 'r4', 'r5'],
    ]);
  });

  it('retries the whole batch when batchItemFailures names a record that is not in it', async () => {
    await putItems(2);
    const { poller, batches, keysOf } = await poll(
      (_event, call) =>
        call === 1 ? { batchItemFailures: [{ itemIdentifier: 'no-such-sequence' }] } : undefined,
      { from: 'trim_horizon' },
    );

    await poller.drain();

    expect(batches.map(keysOf)).toEqual([
      ['r1', 'r2'],
      ['r1', 'r2'],
    ]);
  });

  it('skips a batch that still fails after maxRetries retries, reports it as discarded, and keeps reading', async () => {
    await putItems(1);
    const { poller, batches, keysOf, errors } = await poll(
      (event) => {
        if (skOf(event.Records[0] as DynamoDBRecord) === 'r1') throw new Error('poison record');
        return undefined;
      },
      { from: 'trim_horizon', maxRetries: 2 },
    );

    await poller.drain();
    await putItems(1, 2);
    await poller.drain();

    expect(batches.map(keysOf)).toEqual([['r1'], ['r1'], ['r1'], ['r2']]);
    expect(
      errors.map((context) => context.stage === 'handler' && [context.attempt, context.discarded]),
    ).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
  });

  it('refuses a table whose stream is off', async () => {
    const withoutStream = `${tableName}-no-stream`;
    await testDynamoDbClient().send(
      new CreateTableCommand({
        ...createTableInput(withoutStream),
        StreamSpecification: { StreamEnabled: false },
      }),
    );

    await expect(
      startStreamPoller({
        endpoint: testDynamoDbEndpoint(),
        accessKeyId: testDynamoDbAccessKeyId(),
        tableName: withoutStream,
        handler: async () => undefined,
      }),
    ).rejects.toThrow(`Table ${withoutStream} has no stream enabled`);
    await deleteTestTable(withoutStream);
  });
});
