import { readFile, stat } from 'node:fs/promises';
import { Stage } from '../../functions/config';
import { parseApiKey, StageKeyCode } from '../../functions/domain/api-key';
import { readSettings, textWhere } from '../../functions/settings/setting';
import { UsageError } from '../cli/command-failure';

const keyShape = 'an API key, merchant_sbx… or merchant_prd… as the admin CLI printed it';

/** `npm run smoke`'s variable; never repeated in an error. */
export const SmokeVariables = {
  SMOKE_API_KEY: textWhere(keyShape, (value) => parseApiKey(value) !== undefined, { secret: true }),
} as const;

export interface SmokeKey {
  readonly apiKey: string;
  /** `merchant_<code><keyId>`: names the key without revealing it. */
  readonly keyPrefix: string;
  /** The stage the key was issued for: the only stage that accepts it. */
  readonly stage: Stage;
}

/** The key from SMOKE_API_KEY or from `keyFile`, exactly one of them; every problem is a `UsageError`. */
export async function readSmokeKey(
  keyFile: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<SmokeKey> {
  const fromEnv = readSettings(env, SmokeVariables).SMOKE_API_KEY;
  if (fromEnv !== undefined && keyFile !== undefined) {
    throw new UsageError('the key is given twice, in SMOKE_API_KEY and by --key-file: give it one way.');
  }
  if (fromEnv !== undefined) return smokeKeyOf(fromEnv);
  if (keyFile === undefined) {
    throw new UsageError(
      'no API key: set SMOKE_API_KEY, or give --key-file <path> naming a file of mode 0600.',
    );
  }
  return smokeKeyOf(await keyFromFile(keyFile));
}

function smokeKeyOf(apiKey: string): SmokeKey {
  const parsed = parseApiKey(apiKey);
  if (parsed === undefined) throw new UsageError(`the key is not accepted: it must be ${keyShape}.`);
  const stage = parsed.stageCode === StageKeyCode.production ? Stage.production : Stage.sandbox;
  return { apiKey, keyPrefix: parsed.keyPrefix, stage };
}

/**
 * The file's one line. A file others may read or write is refused, as ssh refuses a private key:
 * the key's owner may read it, nobody else.
 */
async function keyFromFile(path: string): Promise<string> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `--key-file ${JSON.stringify(path)} cannot be read: ${error.code ?? error.message}.`,
    );
  });
  if (!info.isFile()) throw new UsageError(`--key-file ${JSON.stringify(path)} is not a file.`);
  const mode = info.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new UsageError(
      `--key-file ${JSON.stringify(path)} is open to others (mode ${mode.toString(8).padStart(4, '0')}): make it yours only, chmod 600.`,
    );
  }
  const text = await readFile(path, 'utf8');
  const key = text.replace(/\r?\n$/, '');
  if (parseApiKey(key) === undefined) {
    throw new UsageError(`--key-file ${JSON.stringify(path)} does not hold ${keyShape}, alone on its line.`);
  }
  return key;
}
