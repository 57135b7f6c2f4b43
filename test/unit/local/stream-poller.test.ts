import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import {
  type StreamPollerOptions,
  startStreamPoller,
  toLambdaRecord,
} from '../../../lib/local/stream-poller';

const source = {
  region: 'us-east-1',
  streamArn: 'arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/label',
};

describe('toLambdaRecord', () => {
  /** The attribute types Lambda passes on as the stream gives them; only binaries change form. */
  const plainAttributes = {
    PK: { S: 'A' },
    amount: { N: '1200' },
    paused: { BOOL: false },
    note: { NULL: true },
    tags: { SS: ['x', 'y'] },
    scores: { NS: ['1', '2'] },
  };

  it('keeps attribute values in DynamoDB JSON, with binaries as base64 strings as Lambda delivers them', () => {
    const record = toLambdaRecord(
      {
        eventID: 'e1',
        eventName: 'INSERT',
        eventVersion: '1.1',
        eventSource: 'aws:dynamodb',
        awsRegion: 'ddblocal',
        dynamodb: {
          ApproximateCreationDateTime: new Date('2030-01-01T00:00:59.900Z'),
          Keys: { PK: { S: 'A' } },
          NewImage: {
            ...plainAttributes,
            secretHash: { B: Uint8Array.from([0xff, 0x00]) },
            blobs: { BS: [Uint8Array.from([1]), Uint8Array.from([2, 3])] },
            nested: {
              M: { list: { L: [{ S: 's' }, { B: Uint8Array.from([4]) }, { M: { n: { N: '5' } } }] } },
            },
          },
          SequenceNumber: '000000000000000000001',
          SizeBytes: 42,
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
      },
      source,
    );

    expect(record).toEqual({
      eventID: 'e1',
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      dynamodb: {
        ApproximateCreationDateTime: Date.parse('2030-01-01T00:00:59Z') / 1000,
        Keys: { PK: { S: 'A' } },
        NewImage: {
          ...plainAttributes,
          secretHash: { B: '/wA=' },
          blobs: { BS: ['AQ==', 'AgM='] },
          nested: { M: { list: { L: [{ S: 's' }, { B: 'BA==' }, { M: { n: { N: '5' } } }] } } },
        },
        SequenceNumber: '000000000000000000001',
        SizeBytes: 42,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
      eventSourceARN: source.streamArn,
    });
  });

  it('carries the TTL service identity of an expiry deletion in camel case, as Lambda does', () => {
    const record = toLambdaRecord(
      {
        eventName: 'REMOVE',
        dynamodb: { Keys: { PK: { S: 'A' } } },
        userIdentity: { Type: 'Service', PrincipalId: 'dynamodb.amazonaws.com' },
      },
      source,
    );

    expect(record.userIdentity).toEqual({ type: 'Service', principalId: 'dynamodb.amazonaws.com' });
    expect(record.eventVersion).toBe('1.1');
  });
});

describe('startStreamPoller shard lineage', () => {
  const streamArn = 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/label';

  function mockedClients() {
    const dynamodb = new DynamoDBClient({ region: 'us-east-1' });
    const streams = new DynamoDBStreamsClient({ region: 'us-east-1' });
    mockClient(dynamodb)
      .on(DescribeTableCommand)
      .resolves({ Table: { LatestStreamArn: streamArn, StreamSpecification: { StreamEnabled: true } } });
    return { clients: { dynamodb, streams }, streamsMock: mockClient(streams) };
  }

  function insert(sequenceNumber: string) {
    return {
      eventName: 'INSERT' as const,
      dynamodb: { SequenceNumber: sequenceNumber, Keys: { PK: { S: 'A' } } },
    };
  }

  async function collect(options: Partial<StreamPollerOptions> & Pick<StreamPollerOptions, 'clients'>) {
    const batches: (string | undefined)[][] = [];
    const poller = await startStreamPoller({
      tableName: 't',
      pollIntervalMs: 5,
      onError: () => {},
      handler: async (event) => {
        batches.push(event.Records.map((record) => record.dynamodb?.SequenceNumber));
      },
      ...options,
    });
    return { poller, batches };
  }

  it('reads a closed parent shard to its end before its child, even when the child is listed first', async () => {
    const { clients, streamsMock } = mockedClients();
    streamsMock.on(DescribeStreamCommand).resolves({
      StreamDescription: {
        Shards: [
          { ShardId: 'child', ParentShardId: 'parent', SequenceNumberRange: { StartingSequenceNumber: '3' } },
          {
            ShardId: 'parent',
            SequenceNumberRange: { StartingSequenceNumber: '1', EndingSequenceNumber: '2' },
          },
        ],
      },
    });
    streamsMock.on(GetShardIteratorCommand, { ShardId: 'parent' }).resolves({ ShardIterator: 'parent-0' });
    streamsMock.on(GetShardIteratorCommand, { ShardId: 'child' }).resolves({ ShardIterator: 'child-0' });
    streamsMock
      .on(GetRecordsCommand, { ShardIterator: 'parent-0' })
      .resolves({ Records: [insert('1'), insert('2')] });
    streamsMock
      .on(GetRecordsCommand, { ShardIterator: 'child-0' })
      .resolves({ Records: [insert('3')], NextShardIterator: 'child-1' });
    streamsMock
      .on(GetRecordsCommand, { ShardIterator: 'child-1' })
      .resolves({ Records: [], NextShardIterator: 'child-1' });

    const { poller, batches } = await collect({ clients, from: 'trim_horizon' });
    await poller.drain();
    await poller.stop();

    expect(batches).toEqual([['1', '2'], ['3']]);
    const reads = streamsMock.commandCalls(GetRecordsCommand).map((call) => call.args[0].input.ShardIterator);
    expect(reads.slice(0, 2)).toEqual(['parent-0', 'child-0']);
  });

  it('reads shards open at start from LATEST and shards that appear later from TRIM_HORIZON', async () => {
    const { clients, streamsMock } = mockedClients();
    streamsMock
      .on(DescribeStreamCommand)
      .resolvesOnce({ StreamDescription: { Shards: [{ ShardId: 'first' }] } })
      .resolves({
        StreamDescription: {
          Shards: [
            { ShardId: 'first', SequenceNumberRange: { EndingSequenceNumber: '9' } },
            { ShardId: 'second', ParentShardId: 'first' },
          ],
        },
      });
    streamsMock.on(GetShardIteratorCommand, { ShardId: 'first' }).resolves({ ShardIterator: 'first-0' });
    streamsMock.on(GetShardIteratorCommand, { ShardId: 'second' }).resolves({ ShardIterator: 'second-0' });
    streamsMock.on(GetRecordsCommand, { ShardIterator: 'first-0' }).resolves({ Records: [insert('9')] });
    streamsMock
      .on(GetRecordsCommand, { ShardIterator: 'second-0' })
      .resolves({ Records: [insert('10')], NextShardIterator: 'second-1' });
    streamsMock
      .on(GetRecordsCommand, { ShardIterator: 'second-1' })
      .resolves({ Records: [], NextShardIterator: 'second-1' });

    const { poller, batches } = await collect({ clients, shardDiscoveryIntervalMs: 60_000 });
    await poller.drain();
    await poller.stop();

    const iterators = streamsMock
      .commandCalls(GetShardIteratorCommand)
      .map((call) => [call.args[0].input.ShardId, call.args[0].input.ShardIteratorType]);
    expect(iterators).toEqual([
      ['first', 'LATEST'],
      ['second', 'TRIM_HORIZON'],
    ]);
    expect(batches).toEqual([['9'], ['10']]);
  });
});
