import { chmod, lstat, mkdir } from 'node:fs/promises';
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
    const info = await lstat(path).catch(ignoreMissing);
    if (info?.isFile() && (info.mode & 0o777) !== PrivateMode.file) await chmod(path, PrivateMode.file);
  }
}

/** For a `.catch` that takes a missing file as undefined and rethrows anything else. */
export function ignoreMissing(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT') return undefined;
  throw error;
}
