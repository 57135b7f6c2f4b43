import {
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type GetShardIteratorCommandInput,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { toLambdaRecord } from '../local/stream-poller';
import { regionOfStream, type StreamFailureRecord } from './stream-failure-record';

/** What the stream holds of a failure record's range. */
export type StreamRange =
  /** Every record from the start to the end sequence number, in order, as Lambda delivers them. */
  | { readonly kind: 'read'; readonly records: DynamoDBRecord[] }
  /** The stream no longer holds the range (it keeps records 24 h): `reason` says how that showed. */
  | { readonly kind: 'expired'; readonly reason: string }
  /** The shard gave no record past `lastSequenceNumber`, short of the range's end. */
  | { readonly kind: 'incomplete'; readonly lastSequenceNumber: string };

/** GetRecords' own maximum: a range past it is read over several pages. */
const recordsPerPage = 1000;

/** A shard trimmed past the range, or a shard or stream deleted since (24 h after it closed). */
const goneErrors = new Set(['TrimmedDataAccessException', 'ResourceNotFoundException']);

/** The range starts at its first record itself: AT_SEQUENCE_NUMBER, not AFTER_. */
export function buildGetRangeIterator(range: StreamFailureRecord): GetShardIteratorCommandInput {
  return {
    StreamArn: range.streamArn,
    ShardId: range.shardId,
    ShardIteratorType: 'AT_SEQUENCE_NUMBER',
    SequenceNumber: range.startSequenceNumber,
  };
}

/**
 * Reads the records of `range` from the table's stream: pages of GetRecords from the range's start
 * until a record at or past its end, a closed shard's last page (no next iterator) or an empty page.
 */
export async function readStreamRange(
  client: DynamoDBStreamsClient,
  range: StreamFailureRecord,
): Promise<StreamRange> {
  const end = BigInt(range.endSequenceNumber);
  const read: StreamRecord[] = [];
  const done = (): StreamRange => ({
    kind: 'read',
    records: read.map((record) => asDelivered(record, range)),
  });
  try {
    let { ShardIterator: iterator } = await client.send(
      new GetShardIteratorCommand(buildGetRangeIterator(range)),
    );
    while (iterator !== undefined) {
      const page = await client.send(
        new GetRecordsCommand({ ShardIterator: iterator, Limit: recordsPerPage }),
      );
      const records = page.Records ?? [];
      if (records.length === 0) break;
      for (const record of records) {
        const position = BigInt(record.dynamodb?.SequenceNumber ?? range.startSequenceNumber);
        if (position > end) return done();
        read.push(record);
        if (position === end) return done();
      }
      iterator = page.NextShardIterator;
    }
  } catch (error) {
    const name = (error as Error).name;
    if (goneErrors.has(name)) return { kind: 'expired', reason: name };
    throw error;
  }
  const last = read.at(-1)?.dynamodb?.SequenceNumber;
  if (last === undefined) return { kind: 'expired', reason: 'no record at the start sequence number' };
  return { kind: 'incomplete', lastSequenceNumber: last };
}

function asDelivered(record: StreamRecord, range: StreamFailureRecord): DynamoDBRecord {
  return toLambdaRecord(record, { region: regionOfStream(range.streamArn), streamArn: range.streamArn });
}
