import * as z from 'zod/mini';
import { text } from '../../functions/validation/text';

const sequenceNumber = () => text({ pattern: /^[0-9]{1,64}$/ });

/**
 * The fields of a Lambda stream on-failure record (the body of a router-failures message) that a
 * replay needs: where the records the router gave up on lie in the table's stream, and why Lambda
 * gave up (`RetryAttemptsExhausted`, `RecordAgeExceeded`, …). The record carries more (request
 * and response context, arrival times, batch size); only these are picked before they are checked.
 */
const StreamFailureRecord = z.strictObject({
  shardId: text({ min: 1 }),
  startSequenceNumber: sequenceNumber(),
  endSequenceNumber: sequenceNumber(),
  streamArn: text({ pattern: /^arn:[^:]+:dynamodb:[^:]+:[0-9]*:table\/[^/]+\/stream\/.+$/ }),
  condition: z.optional(text()),
});

export type StreamFailureRecord = z.output<typeof StreamFailureRecord>;

/** The batch a failure message names, or undefined when the body is not a stream on-failure record. */
export function parseStreamFailureRecord(body: string | undefined): StreamFailureRecord | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body ?? '');
  } catch {
    return undefined;
  }
  const record = objectOf(json);
  const batch = objectOf(record.DDBStreamBatchInfo);
  const parsed = z.safeParse(StreamFailureRecord, {
    shardId: batch.shardId,
    startSequenceNumber: batch.startSequenceNumber,
    endSequenceNumber: batch.endSequenceNumber,
    streamArn: batch.streamArn,
    condition: objectOf(record.requestContext).condition,
  });
  if (!parsed.success) return undefined;
  const { startSequenceNumber, endSequenceNumber } = parsed.data;
  return BigInt(startSequenceNumber) <= BigInt(endSequenceNumber) ? parsed.data : undefined;
}

/** The region of a stream ARN, which Lambda writes as `awsRegion` in each record it delivers. */
export function regionOfStream(streamArn: string): string {
  return streamArn.split(':')[3] ?? '';
}

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
