import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Through this file the admin CLI empties the gateway's authorizer cache: each flush writes a new token. */
export function authorizerCacheFlushFile(stateDir: string): string {
  return join(stateDir, 'authorizer-cache-flush');
}

/** Empties the cache of the runtime of `stateDir`; renamed into place, so no token is read half-written. */
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
 * The current token: '' before the first flush, undefined when unreadable. Read synchronously: before
 * every keyed request, three small system calls cost less than an asynchronous read's round trips.
 */
export function readAuthorizerCacheFlushToken(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? '' : undefined;
  }
}
