import { readSettings, type SettingsOf, text } from '../../functions/settings/setting';
import { LocalVariables, listenHost, listenPort } from '../local/settings';

/** `npm run webhook-receiver`'s variables. */
export const ReceiverVariables = {
  /** 0 picks a free port. */
  RECEIVER_PORT: listenPort(4443),
  RECEIVER_HOST: listenHost(),
  /**
   * Where the certificate, the secrets file and received.ndjson live (default webhook-receiver/ in
   * the runtime's state folder, where `npm start` finds the CA).
   */
  RECEIVER_DIR: text('a folder path'),
  /** The runtime's state folder, as `npm start` reads it: the default RECEIVER_DIR is inside it. */
  LOCAL_STATE_DIR: LocalVariables.LOCAL_STATE_DIR,
} as const;

export type ReceiverSettings = SettingsOf<typeof ReceiverVariables>;

export function readReceiverSettings(env: Readonly<Record<string, string | undefined>>): ReceiverSettings {
  return readSettings(env, ReceiverVariables);
}
