import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

let sequence = 0;

/** A stream record in the shape Lambda delivers it (NEW_AND_OLD_IMAGES). */
export function streamRecord(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  images: { newImage?: Record<string, unknown>; oldImage?: Record<string, unknown> },
): DynamoDBRecord {
  sequence += 1;
  const options = { removeUndefinedValues: true, convertClassInstanceToMap: true };
  return {
    eventID: `event-${sequence}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      SequenceNumber: String(sequence).padStart(21, '0'),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
      ...(images.newImage === undefined ? {} : { NewImage: marshall(images.newImage, options) as never }),
      ...(images.oldImage === undefined ? {} : { OldImage: marshall(images.oldImage, options) as never }),
    },
  };
}

export function streamEvent(...records: DynamoDBRecord[]): DynamoDBStreamEvent {
  return { Records: records };
}
