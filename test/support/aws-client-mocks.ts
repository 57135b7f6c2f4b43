import type { InvokeCommandOutput } from '@aws-sdk/client-lambda';
import { QueueDoesNotExist } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach } from 'vitest';

/**
 * `mockClient` for the whole test file: what the stub was told to answer and recorded is cleared
 * after each test, so no test sees another's answers, and the stub is removed after the file's last
 * test. A worker runs file after file in one process, and a stub left on a client class would
 * answer the next file's calls in place of DynamoDB Local.
 */
export const mockAwsClient = ((client: Parameters<typeof mockClient>[0]) => {
  const mock = mockClient(client);
  afterEach(() => {
    mock.reset();
  });
  afterAll(() => {
    mock.restore();
  });
  return mock;
}) as typeof mockClient;

/** An Invoke response's Payload: bytes, which is all the CLI reads of the SDK's blob adapter. */
export function invokePayload(value: unknown): InvokeCommandOutput['Payload'] & Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value)) as InvokeCommandOutput['Payload'] & Uint8Array;
}

/** The error SQS answers GetQueueUrl with for a queue name it does not know. */
export function queueDoesNotExist(): QueueDoesNotExist {
  return new QueueDoesNotExist({ message: 'The specified queue does not exist.', $metadata: {} });
}
