import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  DeleteMessageCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRouter } from '../../../functions/delivery/router';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import { documentClient, tableName } from '../../../functions/store/client';
import { EntityType, keys } from '../../../functions/store/keys';
import { buildPutNewEndpoint } from '../../../functions/store/webhook-endpoints';
import { replayStageRouterFailures } from '../../../tools/admin/router-replay';
import { dynamoDbLocalClientConfig } from '../../../tools/local/dynamodb-local';
import { invokePayload, mockAwsClient } from '../../support/aws-client-mocks';
import { testDynamoDbAccessKeyId, testDynamoDbClient, testDynamoDbEndpoint } from '../../support/dynamodb';
import { invoicePaidEndpoint } from '../../support/stored-endpoint';
import { useFreshTable } from '../../support/table-environment';

// No local twin of SQS or Lambda: the queue and the invocation are mocked, the stream is DynamoDB Local's.
const sqs = mockAwsClient(SQSClient);
const lambda = mockAwsClient(LambdaClient);
const streams = new DynamoDBStreamsClient(
  dynamoDbLocalClientConfig(testDynamoDbEndpoint(), testDynamoDbAccessKeyId()),
);
const merchantId = newId('mer');
const queueUrl = 'https://sqs.eu-west-1.amazonaws.com/123456789012/MerchantPayments-sandbox-router-failures';

beforeEach(async () => {
  await useFreshTable();
});
afterAll(() => streams.destroy());

async function putEndpoint() {
  const endpoint = invoicePaidEndpoint(merchantId, '2026-11-22T11:00:00.000Z');
  for (const { Put } of buildPutNewEndpoint(endpoint, 'sealed')) {
    await documentClient().send(new PutCommand(Put));
  }
  return endpoint;
}

/** An outbox event item as a mutating route writes it. */
async function putEvent(): Promise<string> {
  const eventId = newId('evt');
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.event(eventId),
        entityType: EntityType.event,
        eventId,
        eventType: EventType.invoicePaid,
        merchantId,
        payload: { invoiceId: 'inv_1', amount: 100 },
        createdAt: '2026-11-22T12:00:00.000Z',
      },
    }),
  );
  return eventId;
}

/** An item of a type the stream mapping's filter keeps away from the router. */
async function putUnroutedItem(): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { PK: `MERCHANT#${merchantId}`, SK: 'NOTE', entityType: EntityType.merchant, note: 'x' },
    }),
  );
}

/**
 * Every record the table's stream holds once it holds one of each given key, with its shard and the
 * stream's ARN. A write reaches DynamoDB Local's stream a moment after it is acknowledged, so an
 * early read may end before the last writes.
 */
async function streamHolding(pks: readonly string[]) {
  return vi.waitFor(
    async () => {
      const soFar = await streamSoFar();
      const missing = pks.filter((pk) => !soFar.records.some(({ record }) => pkOf(record) === pk));
      if (missing.length > 0) throw new Error(`no stream record of ${missing.join(', ')} yet`);
      return soFar;
    },
    { timeout: 10_000, interval: 100 },
  );
}

async function streamSoFar() {
  const { Table } = await testDynamoDbClient().send(new DescribeTableCommand({ TableName: tableName() }));
  const streamArn = Table?.LatestStreamArn ?? '';
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  const records: { shardId: string; record: StreamRecord }[] = [];
  for (const { ShardId: shardId = '' } of StreamDescription?.Shards ?? []) {
    let { ShardIterator: iterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: 'TRIM_HORIZON',
      }),
    );
    while (iterator !== undefined) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
      if ((page.Records ?? []).length === 0) break;
      for (const record of page.Records ?? []) records.push({ shardId, record });
      iterator = page.NextShardIterator;
    }
  }
  return { streamArn, records };
}

function pkOf(record: StreamRecord): string | undefined {
  return record.dynamodb?.Keys?.PK?.S;
}

async function deliveredEventIds(): Promise<string[]> {
  const { Items = [] } = await documentClient().send(
    new ScanCommand({ TableName: tableName(), ConsistentRead: true }),
  );
  return Items.filter((item) => item.entityType === EntityType.webhookDelivery)
    .map((item) => String(item.eventId))
    .sort();
}

describe('replayStageRouterFailures against a DynamoDB Local stream', () => {
  it('hands the router the routed records of the message’s sequence range, as the mapping delivers them, and deletes the message', async () => {
    await putEndpoint();
    const before = await putEvent();
    const first = await putEvent();
    await putUnroutedItem();
    const last = await putEvent();
    const after = await putEvent();
    const { streamArn, records } = await streamHolding(
      [before, first, last, after].map((eventId) => keys.event(eventId).PK),
    );
    const at = (eventId: string) => {
      const found = records.find(({ record }) => pkOf(record) === keys.event(eventId).PK);
      if (found === undefined) throw new Error(`no stream record of ${eventId}`);
      return found;
    };
    const start = at(first);
    const end = at(last);
    expect(end.shardId).toBe(start.shardId);
    const range = {
      shardId: start.shardId,
      startSequenceNumber: start.record.dynamodb?.SequenceNumber ?? '',
      endSequenceNumber: end.record.dynamodb?.SequenceNumber ?? '',
    };
    const body = JSON.stringify({
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 11 },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      version: '1.0',
      timestamp: '2026-11-22T12:01:00.000Z',
      DDBStreamBatchInfo: { ...range, batchSize: 2, streamArn },
    });
    sqs.on(GetQueueUrlCommand).resolves({ QueueUrl: queueUrl });
    sqs
      .on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: [{ MessageId: 'm-1', ReceiptHandle: 'receipt-1', Body: body }] })
      .resolves({});
    sqs.on(DeleteMessageCommand).resolves({});
    // The deployed router, run here: the invocation's payload is the event its handler receives.
    const route = createRouter({ queue: { send: async () => {} } });
    const invoked: DynamoDBStreamEvent[] = [];
    lambda.on(InvokeCommand).callsFake(async (input: { Payload: Uint8Array }) => {
      const event = JSON.parse(new TextDecoder().decode(input.Payload)) as DynamoDBStreamEvent;
      invoked.push(event);
      return { StatusCode: 200, Payload: invokePayload(await route(event)) };
    });

    const result = await replayStageRouterFailures(
      { sqs: new SQSClient({}), lambda: new LambdaClient({}), streams },
      'sandbox',
      10,
    );

    expect(result).toEqual({
      queue: 'MerchantPayments-sandbox-router-failures',
      function: 'MerchantPayments-sandbox-router',
      read: 1,
      replayed: 1,
      expired: 0,
      failed: 0,
      messages: [
        { messageId: 'm-1', ...range, condition: 'RetryAttemptsExhausted', outcome: 'replayed', records: 2 },
      ],
    });
    expect(invoked).toHaveLength(1);
    const handed = invoked[0]?.Records ?? [];
    expect(handed.map((record) => record.dynamodb?.Keys?.PK?.S)).toEqual([
      keys.event(first).PK,
      keys.event(last).PK,
    ]);
    for (const record of handed) {
      expect(record).toMatchObject({
        eventName: 'INSERT',
        eventSource: 'aws:dynamodb',
        eventSourceARN: streamArn,
      });
    }
    expect(await deliveredEventIds()).toEqual([first, last].sort());
    expect(await deliveredEventIds()).not.toContain(before);
    expect(await deliveredEventIds()).not.toContain(after);
    expect(sqs.commandCalls(DeleteMessageCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: queueUrl, ReceiptHandle: 'receipt-1' },
    ]);
  });
});
