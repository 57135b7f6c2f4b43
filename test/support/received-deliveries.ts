import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WebhookReceiverFiles } from '../../tools/webhook-receiver/webhook-receiver';

/** Every line the local webhook receiver in `dir` has written to received.ndjson, parsed, oldest first. */
export async function receivedDeliveries(dir: string): Promise<any[]> {
  const text = await readFile(join(dir, WebhookReceiverFiles.received), 'utf8');
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
}
