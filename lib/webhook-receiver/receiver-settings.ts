import { readSettings, type SettingsOf, text } from '../../functions/settings/setting';
import { listenHost, listenPort } from '../local/settings';

/** `npm run webhook-receiver`'s variables. */
export const ReceiverVariables = {
  /** 0 picks a free port. */
  RECEIVER_PORT: listenPort(4443),
  RECEIVER_HOST: listenHost(),
  /** Where the certificate, the secrets file and received.ndjson live (default .local/webhook-receiver/). */
  RECEIVER_DIR: text('a folder path'),
} as const;

export type ReceiverSettings = SettingsOf<typeof ReceiverVariables>;

export function readReceiverSettings(env: Readonly<Record<string, string | undefined>>): ReceiverSettings {
  return readSettings(env, ReceiverVariables);
}
