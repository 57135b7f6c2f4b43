import { randomBytes } from 'node:crypto';
import { chmod, link, lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The modes of what the local tools keep under `.local/` (docs/security.md "Another user on this
 * machine (local development)"): keys, secrets and data of this user only, whatever the umask.
 */
export const PrivateMode = { dir: 0o700, file: 0o600 } as const;

/**
 * Makes `dir` (and any missing parent) mode 0700, and closes it again when it exists with a looser
 * mode, as a folder made by an earlier version or under another umask may.
 */
export async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PrivateMode.dir });
  await chmod(dir, PrivateMode.dir);
}

/**
 * Sets each of `names` in `dir` that is a regular file to mode 0600. Only the files named: the
 * folder may be one the user chose (`LOCAL_STATE_DIR`), so nothing else in it is touched, and a
 * symbolic link is left alone rather than followed to whatever it names.
 */
export async function closeFiles(dir: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const path = join(dir, name);
    const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    if (info?.isFile() && (info.mode & 0o777) !== PrivateMode.file) await chmod(path, PrivateMode.file);
  }
}

/** The installation's DynamoDB Local access key: its database is named after it. */
export const DynamoDbAccessKey = {
  file: 'dynamodb.key',
  holds: 'a DynamoDB Local access key (32 hex digits)',
  // 128 random bits in hex: DynamoDB Local accepts letters and digits only in an access key.
  make: () => randomBytes(16).toString('hex'),
  isKey: (text: string) => /^[0-9a-f]{32}$/.test(text),
};

/** A key the runtime keeps in its state folder, beside the persisted table; `holds` names it in errors. */
export type KeyFile = typeof DynamoDbAccessKey;

/** The key that stands in for KMS: the sealed secrets in the persisted table are useless without it. */
export const SecretsKey: KeyFile = {
  file: 'secrets.key',
  holds: 'a local secrets key (32 bytes in base64)',
  make: () => randomBytes(32).toString('base64'),
  isKey: (text) => Buffer.from(text, 'base64').length === 32,
};

/** The key file exists but does not hold a key; the message names the file, never its content. */
export class KeyFileError extends Error {
  override name = 'KeyFileError';
}

/**
 * The key of `<stateDir>/<key.file>`, or a new one made once (mode 0600) when the file does not
 * exist. The key is written to a file of its own and linked into place, so a reader never sees a
 * half-written key and two starts racing on a new folder agree on the one linked first.
 */
export async function readOrCreateKey(stateDir: string, key: KeyFile): Promise<string> {
  const existing = await readKey(stateDir, key);
  if (existing !== undefined) return existing;
  const made = key.make();
  const file = join(stateDir, key.file);
  const staged = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(staged, `${made}\n`, { mode: PrivateMode.file, flag: 'wx' });
    await link(staged, file);
    return made;
  } catch (error) {
    const raced =
      (error as NodeJS.ErrnoException).code === 'EEXIST' ? await readKey(stateDir, key) : undefined;
    if (raced === undefined) throw error;
    return raced;
  } finally {
    await rm(staged, { force: true });
  }
}

/** The key of `<stateDir>/<key.file>`, or undefined when there is no such file. */
export async function readKey(stateDir: string, key: KeyFile): Promise<string | undefined> {
  const file = join(stateDir, key.file);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new KeyFileError(`cannot read ${file}: ${error.message}`, { cause: error });
  });
  if (text === undefined || key.isKey(text.trim())) return text?.trim();
  // A new key would hide the persisted table, or leave the secrets sealed in it unreadable.
  throw new KeyFileError(
    `${file} does not hold ${key.holds}: restore it, or delete it together with the dynamodb ` +
      'folder beside it to start with an empty table',
  );
}
