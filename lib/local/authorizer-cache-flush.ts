import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The file in the runtime's state folder through which another process (the admin CLI) empties the
 * local gateway's authorizer cache: each flush writes a fresh random token, and the gateway reads
 * the token before it uses a cached answer.
 */
export function authorizerCacheFlushFile(stateDir: string): string {
  return join(stateDir, 'authorizer-cache-flush');
}

/**
 * Empties the cache of the runtime that keeps its state in `stateDir`, whether it runs or not. The
 * token is renamed into place, so the gateway never reads a half-written one.
 */
export async function flushLocalAuthorizerCache(stateDir: string): Promise<void> {
  const file = authorizerCacheFlushFile(stateDir);
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, randomBytes(16).toString('hex'), { mode: 0o600 });
  await rename(partial, file).catch(async (error: unknown) => {
    await rm(partial, { force: true });
    throw error;
  });
}

/**
 * The current token: '' before the first flush, undefined when the file cannot be read. Read
 * synchronously: the gateway reads it before every keyed request, and three small system calls cost
 * far less than the thread-pool round trips of an asynchronous read.
 */
export function readAuthorizerCacheFlushToken(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? '' : undefined;
  }
}
