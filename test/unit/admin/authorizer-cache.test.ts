import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthorizerCacheFlushError,
  flushAuthorizerCacheAfter,
  restApiIdNamed,
} from '../../../tools/admin/authorizer-cache';
import {
  authorizerCacheFlushFile,
  readAuthorizerCacheFlushToken,
} from '../../../tools/local/authorizer-cache-flush';

describe('restApiIdNamed', () => {
  it('returns the id of the one REST API of that name', () => {
    const apis = [
      { id: 'a1', name: 'MerchantPayments-production-api' },
      { id: 'b2', name: 'MerchantPayments-sandbox-api' },
    ];
    expect(restApiIdNamed(apis, 'MerchantPayments-sandbox-api')).toBe('b2');
  });

  it('refuses to guess between several REST APIs of that name', () => {
    const apis = [
      { id: 'a1', name: 'MerchantPayments-sandbox-api' },
      { id: 'b2', name: 'MerchantPayments-sandbox-api' },
    ];
    expect(() => restApiIdNamed(apis, 'MerchantPayments-sandbox-api')).toThrow(
      '2 REST APIs are named MerchantPayments-sandbox-api (a1, b2)',
    );
  });
});

describe('flushAuthorizerCacheAfter with --local', () => {
  let stateDir: string;
  beforeEach(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'admin-flush-'));
  });
  afterEach(() => rm(stateDir, { recursive: true, force: true }));

  const localTarget = () => ({ stage: 'sandbox' as const, tableName: 't', stateDir });

  it('succeeds with no runtime running, and each flush leaves a new token for the gateway', async () => {
    const file = authorizerCacheFlushFile(stateDir);
    expect(await readAuthorizerCacheFlushToken(file)).toBe('');
    await flushAuthorizerCacheAfter(localTarget(), { ok: true }, 'changed');
    const first = await readAuthorizerCacheFlushToken(file);
    await flushAuthorizerCacheAfter(localTarget(), { ok: true }, 'changed');
    const second = await readAuthorizerCacheFlushToken(file);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(second).toMatch(/^[0-9a-f]{32}$/);
    expect(second).not.toBe(first);
  });

  it('fails with the table change and the cache’s lifetime when the token cannot be written', async () => {
    // A folder where the token file belongs: the rename onto it fails.
    await mkdir(join(authorizerCacheFlushFile(stateDir), 'blocked'), { recursive: true });
    const flushing = flushAuthorizerCacheAfter(
      localTarget(),
      { keyPrefix: 'k' },
      'key k is revoked in the table',
    );
    const error = await flushing.catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(AuthorizerCacheFlushError);
    expect((error as AuthorizerCacheFlushError).result).toEqual({ keyPrefix: 'k' });
    expect((error as Error).message).toMatch(
      /^key k is revoked in the table, but the local runtime's authorizer cache was not flushed \(.+\), so cached answers may still pass until they expire \(AUTH_CACHE_SECONDS, 60 s by default\)$/,
    );
  });
});
