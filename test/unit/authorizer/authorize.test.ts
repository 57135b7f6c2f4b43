import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authorize } from '../../../functions/authorizer/authorize';
import { generateApiKey } from '../../../functions/domain/api-key';
import type { ApiKeyRecord } from '../../../functions/store/merchants';

const now = new Date('2026-11-22T12:00:00.000Z');
const key = generateApiKey('sandbox', (size) => randomBytes(size));

function recordOf(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    keyId: key.keyId,
    keyPrefix: key.keyPrefix,
    keyHash: key.keyHash,
    merchantId: 'mer_01h455vb4pex5vsknk084sn02q',
    stage: 'sandbox',
    status: 'active',
    createdAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

const withRecord = (record: ApiKeyRecord | undefined) => ({
  stage: 'sandbox' as const,
  now,
  findKey: async (keyId: string) => (keyId === record?.keyId ? record : undefined),
  findPortalSession: async () => undefined,
});

describe('authorize', () => {
  it('allows an active key of this stage and names its merchant', async () => {
    expect(await authorize(`Bearer ${key.apiKey}`, withRecord(recordOf()))).toEqual({
      allowed: true,
      merchantId: 'mer_01h455vb4pex5vsknk084sn02q',
      principal: { kind: 'apiKey', keyId: key.keyId, keyPrefix: key.keyPrefix },
    });
  });

  it.each(['bearer', 'BEARER', 'bEaReR'])(
    'reads the scheme %s like Bearer, as HTTP names schemes case-insensitively',
    async (scheme) => {
      expect(await authorize(`${scheme} ${key.apiKey}`, withRecord(recordOf()))).toMatchObject({
        allowed: true,
      });
      expect(await authorize(`${scheme}   ${key.apiKey}`, withRecord(recordOf()))).toMatchObject({
        allowed: true,
      });
    },
  );

  it.each([
    ['no header', undefined, recordOf()],
    ['a scheme that only starts like Bearer', `Bearerx ${key.apiKey}`, recordOf()],
    ['a bare key without a scheme', key.apiKey, recordOf()],
    ['another scheme', `Basic ${key.apiKey}`, recordOf()],
    ['a malformed key', 'Bearer merchant_x', recordOf()],
    ['an unknown key', `Bearer ${key.apiKey}`, undefined],
    ['a revoked key', `Bearer ${key.apiKey}`, recordOf({ status: 'revoked' })],
    ['an expired key', `Bearer ${key.apiKey}`, recordOf({ expiresAt: '2026-11-22T11:59:59.000Z' })],
    ['a stored hash of another key', `Bearer ${key.apiKey}`, recordOf({ keyHash: '0'.repeat(64) })],
  ])('refuses %s', async (_label, header, record) => {
    const result = await authorize(header, withRecord(record));
    expect(result.allowed).toBe(false);
  });

  it('refuses a production key on sandbox without looking it up', async () => {
    const production = generateApiKey('production', (size) => randomBytes(size));
    let lookedUp = false;
    const result = await authorize(`Bearer ${production.apiKey}`, {
      stage: 'sandbox',
      now,
      findKey: async () => {
        lookedUp = true;
        return undefined;
      },
      findPortalSession: async () => undefined,
    });
    expect(result).toEqual({ allowed: false, reason: 'key of another stage' });
    expect(lookedUp).toBe(false);
  });

  it('never puts the key into the refusal reason', async () => {
    const result = await authorize(`Bearer ${key.apiKey}`, withRecord(recordOf({ status: 'revoked' })));
    expect(JSON.stringify(result)).not.toContain(key.apiKey.slice(23));
  });
});
