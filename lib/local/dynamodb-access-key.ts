import { randomBytes } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The file in the state folder (`.local/`) that holds the installation's DynamoDB Local access key. */
export const DynamoDbAccessKeyFile = 'dynamodb.key';

/** 128 random bits in hex: DynamoDB Local accepts letters and digits only in an access key. */
const KeyPattern = /^[0-9a-f]{32}$/;

/** The key file exists but does not hold a key; the message names the file, never its content. */
export class DynamoDbAccessKeyError extends Error {
  override name = 'DynamoDbAccessKeyError';
}

/**
 * The installation's DynamoDB Local access key: read from `<stateDir>/dynamodb.key`, or made once
 * (mode 0600) when the file does not exist. The key is written to a file of its own and linked into
 * place, so a reader never sees a half-written key and two starts racing on a new folder agree on
 * the one key that was linked first.
 */
export async function readOrCreateDynamoDbAccessKey(stateDir: string): Promise<string> {
  const existing = await readDynamoDbAccessKey(stateDir);
  if (existing !== undefined) return existing;
  const file = join(stateDir, DynamoDbAccessKeyFile);
  const key = randomBytes(16).toString('hex');
  const staged = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(staged, `${key}\n`, { mode: 0o600, flag: 'wx' });
    await link(staged, file);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const raced = await readDynamoDbAccessKey(stateDir);
    if (raced === undefined) throw error;
    return raced;
  } finally {
    await rm(staged, { force: true });
  }
}

/** The key of `<stateDir>/dynamodb.key`, or undefined when there is no such file. */
export async function readDynamoDbAccessKey(stateDir: string): Promise<string | undefined> {
  const file = join(stateDir, DynamoDbAccessKeyFile);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new DynamoDbAccessKeyError(`cannot read ${file}: ${error.message}`, { cause: error });
  });
  if (text === undefined) return undefined;
  const key = text.trim();
  if (!KeyPattern.test(key)) {
    // Replacing the key would hide the persisted table (its database is named after the key).
    throw new DynamoDbAccessKeyError(
      `${file} does not hold a DynamoDB Local access key (32 hex digits): restore it, or delete it ` +
        'together with the dynamodb folder beside it to start with an empty table',
    );
  }
  return key;
}
