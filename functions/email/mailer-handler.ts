import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';

/**
 * Placeholder so the stack can name this module; the application's mailer replaces this file. It
 * processes nothing: every message is reported failed, so none is lost before the real one ships.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  return { batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })) };
}
