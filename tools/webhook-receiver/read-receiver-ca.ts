import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LocalCaFiles } from './local-ca';
import { webhookReceiverDirIn } from './webhook-receiver-dir';

/**
 * The CA certificate `npm run webhook-receiver` keeps in the runtime's state folder, read again at
 * every call, so a receiver started (or a CA made again) after the runtime is trusted from its next
 * attempt on (docs/decisions/local-webhooks-without-a-restart.md). Undefined while there is none, or
 * while what is there is not a CA certificate: the attempt then fails on the receiver's certificate
 * and says so.
 */
export async function readReceiverCa(stateDir: string): Promise<string | undefined> {
  const file = join(webhookReceiverDirIn(stateDir), LocalCaFiles.caCert);
  const pem = await readFile(file, 'utf8').catch(() => undefined);
  if (pem === undefined) return undefined;
  try {
    return new X509Certificate(pem).ca ? pem : undefined;
  } catch {
    return undefined;
  }
}
