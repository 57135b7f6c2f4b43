import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../functions/domain/canonical-json';
import { requestFingerprint } from '../../../functions/domain/idempotency';

/** The same members in reverse insertion order, at every depth. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, member]) => [key, reordered(member)]),
    );
  }
  return value;
}

describe('canonicalJson', () => {
  it('does not depend on key order at any depth', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => canonicalJson(reordered(value)) === canonicalJson(value)),
    );
  });

  it('parses back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('tells different payloads apart', () => {
    expect(requestFingerprint({ name: 'a' })).not.toBe(requestFingerprint({ name: 'b' }));
    expect(requestFingerprint({ a: 1, b: [1, 2] })).toBe(requestFingerprint({ b: [1, 2], a: 1 }));
    expect(requestFingerprint({ a: [1, 2] })).not.toBe(requestFingerprint({ a: [2, 1] }));
  });
});
