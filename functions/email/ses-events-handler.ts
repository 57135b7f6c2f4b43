import type { SNSEvent } from 'aws-lambda';

/**
 * Placeholder so the stack can name this module; the application's SES events function replaces
 * this file. It records nothing and fails, so each event goes to the failures queue, not away.
 */
export async function handler(event: SNSEvent): Promise<void> {
  throw new Error(`SES events function not built: ${event.Records.length} event(s) left unrecorded`);
}
