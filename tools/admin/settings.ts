import { ServiceVariables } from '../../functions/config';
import { readSettings, type SettingsOf } from '../../functions/settings/setting';
import { LocalVariables } from '../local/settings';

/**
 * The admin CLI's variables. It runs the functions' store code, which reads the functions'
 * variables from the environment, so all of those are checked up front with the same rules
 * (a refused one is exit 2 before anything is read or written); the CLI itself sets the table,
 * stage and endpoint of its target.
 */
export const AdminVariables = {
  ...ServiceVariables,
  /** With --local: where `npm start` keeps runtime.json. */
  LOCAL_STATE_DIR: LocalVariables.LOCAL_STATE_DIR,
} as const;

export type AdminSettings = SettingsOf<typeof AdminVariables>;

export function readAdminSettings(env: Readonly<Record<string, string | undefined>>): AdminSettings {
  return readSettings(env, AdminVariables);
}
