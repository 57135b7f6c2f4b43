import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The receiver's folder inside a runtime's state folder: where `npm start` looks for the receiver's
 * CA at every attempt (docs/decisions/local-webhooks-without-a-restart.md).
 */
export function webhookReceiverDirIn(stateDir: string): string {
  return join(stateDir, 'webhook-receiver');
}

/**
 * `RECEIVER_DIR` when set, else `webhook-receiver/` in the state folder `npm start` uses
 * (`LOCAL_STATE_DIR`, or `.local/` at the repo root), so the runtime finds the receiver's CA there.
 */
export function webhookReceiverDir(settings: {
  readonly RECEIVER_DIR?: string | undefined;
  readonly LOCAL_STATE_DIR?: string | undefined;
}): string {
  if (settings.RECEIVER_DIR !== undefined) return resolve(settings.RECEIVER_DIR);
  return webhookReceiverDirIn(resolve(settings.LOCAL_STATE_DIR ?? join(repoRoot, '.local')));
}
