import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  apiKeyMatches,
  effectiveKeyStatus,
  generateApiKey,
  hashApiKey,
  parseApiKey,
} from '../../../functions/domain/api-key';

const random = (size: number) => randomBytes(size);

describe('generateApiKey', () => {
  it('builds merchant_<stage code><10-char id>_<43-char base64url secret>', () => {
    const key = generateApiKey('sandbox', random);
    expect(key.apiKey).toMatch(/^merchant_sbx[a-z0-9]{10}_[A-Za-z0-9_-]{43}$/);
    expect(key.keyPrefix).toBe(key.apiKey.slice(0, 22));
    expect(generateApiKey('production', random).apiKey.startsWith('merchant_prd')).toBe(true);
  });

  it('keeps only a SHA-256 hash of the key', () => {
    const key = generateApiKey('sandbox', random);
    expect(key.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.keyHash).toBe(hashApiKey(key.apiKey));
    expect(key.keyHash).not.toContain(key.apiKey.slice(23));
  });

  it('makes a different key every time', () => {
    expect(generateApiKey('sandbox', random).apiKey).not.toBe(generateApiKey('sandbox', random).apiKey);
  });
});

describe('parseApiKey', () => {
  it('reads the stage code and key id of a well-formed key', () => {
    const key = generateApiKey('production', random);
    expect(parseApiKey(key.apiKey)).toEqual({ stageCode: 'prd', keyId: key.keyId, keyPrefix: key.keyPrefix });
  });

  it.each([
    ['an empty string', ''],
    ['a missing secret', 'merchant_sbx0123456789'],
    ['an unknown stage code', `merchant_dev0123456789_${'a'.repeat(43)}`],
    ['an uppercase key id', `merchant_sbxABCDEFGHIJ_${'a'.repeat(43)}`],
    ['a short secret', `merchant_sbx0123456789_${'a'.repeat(42)}`],
    ['a secret with other characters', `merchant_sbx0123456789_${'a'.repeat(42)}=`],
  ])('refuses %s', (_label, token) => {
    expect(parseApiKey(token)).toBeUndefined();
  });
});

describe('apiKeyMatches', () => {
  it('matches the key it was hashed from and nothing else', () => {
    const key = generateApiKey('sandbox', random);
    expect(apiKeyMatches(key.apiKey, key.keyHash)).toBe(true);
    expect(apiKeyMatches(`${key.apiKey.slice(0, -1)}x`, key.keyHash)).toBe(false);
    expect(apiKeyMatches(key.apiKey, 'abcd')).toBe(false);
  });
});

describe('effectiveKeyStatus', () => {
  const now = new Date('2026-11-22T12:00:00.000Z');
  it('is expired once expiresAt has passed', () => {
    expect(effectiveKeyStatus({ status: 'active', expiresAt: '2026-11-22T12:00:00.000Z' }, now)).toBe(
      'expired',
    );
    expect(effectiveKeyStatus({ status: 'active', expiresAt: '2026-11-22T12:00:01.000Z' }, now)).toBe(
      'active',
    );
    expect(effectiveKeyStatus({ status: 'active' }, now)).toBe('active');
  });
  it('stays revoked whatever its expiry', () => {
    expect(effectiveKeyStatus({ status: 'revoked', expiresAt: '2030-01-01T00:00:00.000Z' }, now)).toBe(
      'revoked',
    );
  });
});
