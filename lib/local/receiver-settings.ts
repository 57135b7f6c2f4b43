import {
  readSettings,
  type SettingsOf,
  text,
  wholeNumber,
  withDefault,
} from '../../functions/settings/setting';

/** `npm run webhook-receiver`'s variables. */
export const ReceiverVariables = {
  /** 0 picks a free port. */
  RECEIVER_PORT: withDefault(wholeNumber(0, 65535), 4443),
  RECEIVER_HOST: withDefault(text('a host name or IP address to listen on', { maxLength: 255 }), '127.0.0.1'),
  /** Where the certificate, the secrets file and received.ndjson live (default .local/webhook-receiver/). */
  RECEIVER_DIR: text('a folder path'),
} as const;

export type ReceiverSettings = SettingsOf<typeof ReceiverVariables>;

export function readReceiverSettings(env: Readonly<Record<string, string | undefined>>): ReceiverSettings {
  return readSettings(env, ReceiverVariables);
}
