import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKey } from '../../tools/admin/operations';
import { localAdmin } from '../support/admin-process';
import { e2eFile, t } from '../support/e2e-test';
import { apiClient } from '../support/local-runtime';

const _repoRoot = resolve(import.meta.dirname, '../..');
// The deployed cache period, so a warm cache would answer for a minute without the flush.
e2eFile({ AUTH_CACHE_SECONDS: 60 });

const admin = localAdmin(() => t.stateDir);

async function newKey() {
  const key = await createKey(t.runtime.merchantId, t.runtime.stage);
  const api = apiClient(t.runtime.baseUrl, key.apiKey);
  const listProducts = () => api('GET', '/catalog/products', { query: { merchantId: t.runtime.merchantId } });
  return { ...key, listProducts };
}

describe('key changes through the admin CLI reach the local gateway’s authorizer cache at once', () => {
  it('keys revoke --local: the very next request with the revoked key is a 401', async () => {
    const key = await newKey();
    expect((await key.listProducts()).status).toBe(200);

    const revoked = await admin('keys', 'revoke', '--key', key.keyPrefix);
    expect(revoked).toMatchObject({
      code: 0,
      stderr: '',
      output: { keyPrefix: key.keyPrefix, status: 'revoked' },
    });

    const refused = await key.listProducts();
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthorized');
  }, 60_000);

  it('keys rotate --local with no grace: the old key is a 401 on the very next request, the new one works', async () => {
    const key = await newKey();
    expect((await key.listProducts()).status).toBe(200);

    const rotated = await admin(
      'keys',
      'rotate',
      '--merchant',
      t.runtime.merchantId,
      '--expire-old-in',
      '0s',
    );
    expect(rotated).toMatchObject({ code: 0, stderr: '' });

    expect((await key.listProducts()).status).toBe(401);
    const fresh = apiClient(t.runtime.baseUrl, rotated.output.apiKey);
    expect(
      (await fresh('GET', '/catalog/products', { query: { merchantId: t.runtime.merchantId } })).status,
    ).toBe(200);
  }, 60_000);
});
