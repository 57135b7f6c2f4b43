import { describe, expect, it } from 'vitest';
import { readAfterParent, shardStarts, toLambdaRecord } from '../../../tools/local/stream-poller';

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

describe('shardStarts', () => {
  const open = (ShardId: string, ParentShardId?: string) => ({ ShardId, ParentShardId });
  const closed = (ShardId: string, ParentShardId?: string) => ({
    ...open(ShardId, ParentShardId),
    SequenceNumberRange: { StartingSequenceNumber: '1', EndingSequenceNumber: '2' },
  });

  it('starts a closed parent shard before its child, even when the child is listed first', () => {
    const starts = shardStarts([open('child', 'parent'), closed('parent')], new Set(), false);

    expect(starts).toEqual([
      { shardId: 'parent', parentId: undefined, from: 'TRIM_HORIZON' },
      { shardId: 'child', parentId: 'parent', from: 'TRIM_HORIZON' },
    ]);
  });

  it('reads shards open at start from LATEST, skips those closed at start, and reads later ones from TRIM_HORIZON', () => {
    const atStart = shardStarts([closed('old'), open('first', 'old')], new Set(), true);
    const later = shardStarts(
      [closed('old'), closed('first', 'old'), open('second', 'first')],
      new Set(['old', 'first']),
      false,
    );

    expect(atStart).toEqual([
      { shardId: 'old', parentId: undefined, from: 'done' },
      { shardId: 'first', parentId: 'old', from: 'LATEST' },
    ]);
    expect(later).toEqual([{ shardId: 'second', parentId: 'first', from: 'TRIM_HORIZON' }]);
  });
});

describe('readAfterParent', () => {
  it("begins a child shard's reading only once its parent's reading has ended", async () => {
    const readings = new Map<string, Promise<void>>();
    const order: string[] = [];
    let endParent = () => {};
    const parentRead = new Promise<void>((resolve) => {
      endParent = resolve;
    });
    readAfterParent(readings, { shardId: 'parent', parentId: undefined }, async () => {
      order.push('parent begins');
      await parentRead;
      order.push('parent ends');
    });
    const child = readAfterParent(readings, { shardId: 'child', parentId: 'parent' }, async () => {
      order.push('child begins');
    });

    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(['parent begins']);
    endParent();
    await child;

    expect(order).toEqual(['parent begins', 'parent ends', 'child begins']);
    expect(readings.get('child')).toBe(child);
  });

  it('begins at once a shard whose parent is unknown, and a child whose parent failed', async () => {
    const readings = new Map<string, Promise<void>>();
    const begun: string[] = [];
    readAfterParent(readings, { shardId: 'failed', parentId: undefined }, () =>
      Promise.reject(new Error('x')),
    );

    await readAfterParent(readings, { shardId: 'orphan', parentId: 'gone' }, async () => {
      begun.push('orphan');
    });
    await readAfterParent(readings, { shardId: 'child', parentId: 'failed' }, async () => {
      begun.push('child');
    });

    expect(begun).toEqual(['orphan', 'child']);
  });
});
