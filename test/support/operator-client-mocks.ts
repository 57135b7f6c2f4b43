import type { InvokeCommandOutput } from '@aws-sdk/client-lambda';
import { QueueDoesNotExist } from '@aws-sdk/client-sqs';
import { afterEach } from 'vitest';

/**
 * Clears what `mock` (an aws-sdk-client-mock stub) was told to answer and recorded after each test
 * of the file, so no test sees another's answers. Returns the stub.
 */
export function resetAfterEach<Mock extends { reset(): unknown }>(mock: Mock): Mock {
  afterEach(() => {
    mock.reset();
  });
  return mock;
}

/** An Invoke response's Payload: bytes, which is all the CLI reads of the SDK's blob adapter. */
export function invokePayload(value: unknown): InvokeCommandOutput['Payload'] & Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value)) as InvokeCommandOutput['Payload'] & Uint8Array;
}

/** The error SQS answers GetQueueUrl with for a queue name it does not know. */
export function queueDoesNotExist(): QueueDoesNotExist {
  return new QueueDoesNotExist({ message: 'The specified queue does not exist.', $metadata: {} });
}
