import { describe, expect, it } from 'vitest';
import {
  idempotencyScopeHash,
  isValidIdempotencyKey,
  requestFingerprint,
} from '../../../functions/domain/idempotency';

describe('isValidIdempotencyKey', () => {
  it('accepts 1 to 255 visible ASCII characters', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
    expect(isValidIdempotencyKey('~'.repeat(255))).toBe(true);
    expect(isValidIdempotencyKey('order-42/retry#1')).toBe(true);
  });
  it.each([
    ['empty', ''],
    ['256 characters', 'a'.repeat(256)],
    ['a space', 'a b'],
    ['a non-ASCII character', 'clé'],
    ['a control character', 'a\tb'],
  ])('refuses a key that is %s', (_label, key) => {
    expect(isValidIdempotencyKey(key)).toBe(false);
  });
});

describe('idempotencyScopeHash', () => {
  const scope = { merchantId: 'mer_1', method: 'POST', path: '/catalog/products', key: 'k' };
  it('differs when merchant, method, path or key differ', () => {
    const base = idempotencyScopeHash(scope);
    expect(idempotencyScopeHash({ ...scope, merchantId: 'mer_2' })).not.toBe(base);
    expect(idempotencyScopeHash({ ...scope, method: 'PUT' })).not.toBe(base);
    expect(idempotencyScopeHash({ ...scope, path: '/catalog/products/x/status' })).not.toBe(base);
    expect(idempotencyScopeHash({ ...scope, key: 'k2' })).not.toBe(base);
    expect(idempotencyScopeHash({ ...scope })).toBe(base);
  });
});

describe('requestFingerprint', () => {
  it('treats an absent body and {} as the same payload', () => {
    expect(requestFingerprint(undefined)).toBe(requestFingerprint({}));
    expect(requestFingerprint(undefined)).not.toBe(requestFingerprint({ a: 1 }));
  });
});
