import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '../../functions/domain/api-key';
import { createKey, revokeKey } from '../../tools/admin/operations';
import { e2eFile, t } from '../support/e2e-test';
import { newKey } from '../support/local-runtime';

// The cache is off so a revoked or expired key is refused on the very next request.
e2eFile({ AUTH_CACHE_SECONDS: 0 });

const listProducts = (authorization: string | null) =>
  t.api('GET', '/catalog/products', { query: { merchantId: t.runtime.merchantId }, authorization });

function expectUnauthorized(result: { status: number; body: any }) {
  expect(result.status).toBe(401);
  expect(result.body.error.code).toBe('unauthorized');
  expect(result.body.error.message).toEqual(expect.any(String));
  expect(result.body.error.requestId).toEqual(expect.any(String));
}

describe('authentication through the local gateway', () => {
  it('accepts the runtime key', async () => {
    expect((await listProducts(`Bearer ${t.runtime.apiKey}`)).status).toBe(200);
  });

  it('accepts the scheme in any case, as HTTP names schemes case-insensitively', async () => {
    expect((await listProducts(`bearer ${t.runtime.apiKey}`)).status).toBe(200);
    expect((await listProducts(`BEARER  ${t.runtime.apiKey}`)).status).toBe(200);
  });

  it('returns 401 without an Authorization header', async () => {
    expectUnauthorized(await listProducts(null));
  });

  it('returns 401 for a scheme other than Bearer', async () => {
    expectUnauthorized(await listProducts(`Basic ${t.runtime.apiKey}`));
  });

  it('returns 401 for a malformed key', async () => {
    expectUnauthorized(await listProducts('Bearer merchant_sbx_short'));
    expectUnauthorized(await listProducts('Bearer not-a-key'));
  });

  it('returns 401 for a well-formed key that was never issued', async () => {
    const unknown = generateApiKey('sandbox', (size) => randomBytes(size));
    expectUnauthorized(await listProducts(`Bearer ${unknown.apiKey}`));
  });

  it('returns 401 for a known key id with the wrong secret', async () => {
    const keyPrefix = t.runtime.apiKey.slice(0, 'merchant_sbx0123456789'.length);
    const forged = `${keyPrefix}_${randomBytes(32).toString('base64url')}`;
    expectUnauthorized(await listProducts(`Bearer ${forged}`));
  });

  it('returns 401 for a revoked key', async () => {
    const key = await createKey(t.runtime.merchantId, 'sandbox');
    expect((await listProducts(`Bearer ${key.apiKey}`)).status).toBe(200);
    await revokeKey(key.keyPrefix);
    expectUnauthorized(await listProducts(`Bearer ${key.apiKey}`));
  });

  it('returns 401 for an expired key', async () => {
    // Issued two minutes ago for one minute.
    const key = await createKey(t.runtime.merchantId, 'sandbox', {
      expiresInSeconds: 60,
      now: new Date(Date.now() - 120_000),
    });
    expectUnauthorized(await listProducts(`Bearer ${key.apiKey}`));
  });

  it('returns 401 for a production key on the sandbox stage', async () => {
    const key = await createKey(t.runtime.merchantId, 'production');
    expectUnauthorized(await listProducts(`Bearer ${key.apiKey}`));
  });

  it('answers 401 before anything else, even on an unknown merchant scope', async () => {
    const result = await t.api('POST', '/catalog/products', {
      authorization: null,
      idempotencyKey: newKey(),
      body: { merchantId: 'mer_01h455vb4pex5vsknk084sn02q', name: 'x' },
    });
    expectUnauthorized(result);
  });
});

describe('merchant scope', () => {
  it('returns 403 forbidden for another merchantId in the query', async () => {
    const other = await t.anotherMerchant();
    const result = await t.api('GET', '/catalog/products', { query: { merchantId: other.merchantId } });
    expect(result.status).toBe(403);
    expect(result.body.error.code).toBe('forbidden');
  });

  it('returns 403 forbidden for another merchantId in the body and writes nothing', async () => {
    const other = await t.anotherMerchant();
    const before = await t.scanTable();
    const result = await t.api('POST', '/catalog/products', {
      idempotencyKey: newKey(),
      body: { merchantId: other.merchantId, name: 'Not mine' },
    });
    expect(result.status).toBe(403);
    expect(result.body.error.code).toBe('forbidden');
    expect(await t.scanTable()).toHaveLength(before.length);
  });

  it('returns 400 when the merchantId is missing', async () => {
    const result = await t.api('GET', '/catalog/products');
    expect(result.status).toBe(400);
    expect(result.body.error.details).toEqual([{ path: 'merchantId', message: 'merchantId is required.' }]);
  });
});

describe('logs', () => {
  it('never contain an API key, whether it was accepted or refused', async () => {
    const key = await createKey(t.runtime.merchantId, 'sandbox');
    const lines: string[] = [];
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await listProducts(`Bearer ${key.apiKey}`);
      await revokeKey(key.keyPrefix);
      await listProducts(`Bearer ${key.apiKey}`);
      await t.api('POST', '/catalog/products', {
        authorization: `Bearer ${t.runtime.apiKey}`,
        idempotencyKey: newKey(),
        rawBody: `{"merchantId":"${t.runtime.merchantId}","name":"${key.apiKey}"`,
      });
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
    }
    expect(lines.length).toBeGreaterThan(0);
    const secretPart = (apiKey: string) => apiKey.slice('merchant_sbx0123456789_'.length);
    for (const line of lines) {
      expect(line).not.toContain(secretPart(key.apiKey));
      expect(line).not.toContain(secretPart(t.runtime.apiKey));
    }
  });
});
