import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signCursor, verifyCursor } from '../../../functions/domain/cursor';
import { assertProperty } from '../../support/property';

/** A fixed key, so that a failure replays with its seed alone. */
const key = Buffer.from('0123456789abcdef0123456789abcdef', 'utf8');
const lastKey = { PK: 'MERCHANT#mer_1', SK: 'PRODUCT#prod_1' };

const signingKey = fc.uint8Array({ minLength: 32, maxLength: 32 });
/** Last keys as the store writes them: string and number attributes, none at all included. */
const anyLastKey = fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.maxSafeInteger()), {
  maxKeys: 4,
});
/** Scopes with the characters that join a scope to its payload, and the empty scope. */
const anyScope = fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom('a', '\n', '.', ' ') }));
/** Every base64url character, the separator, padding, the standard alphabet's own, and more. */
const replacement = fc.oneof(
  fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ '),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

describe('cursors', () => {
  it('carry the last key back in the scope they were issued for', () => {
    const cursor = signCursor(lastKey, 'scope-a', key);
    expect(verifyCursor(cursor, 'scope-a', key)).toEqual(lastKey);
  });

  it('carry any last key back in any scope, under any key', () => {
    assertProperty(
      fc.property(anyLastKey, anyScope, signingKey, (anyKey, scope, anySigningKey) => {
        expect(verifyCursor(signCursor(anyKey, scope, anySigningKey), scope, anySigningKey)).toEqual(anyKey);
      }),
    );
  });

  it('are refused in another scope or under another key', () => {
    const cursor = signCursor(lastKey, 'scope-a', key);
    expect(verifyCursor(cursor, 'scope-b', key)).toBeUndefined();
    expect(verifyCursor(cursor, 'scope-a', Buffer.from('another key'))).toBeUndefined();
  });

  it('are refused in every other scope and under every other key', () => {
    assertProperty(
      fc.property(anyLastKey, anyScope, anyScope, signingKey, signingKey, (anyKey, scope, other, k1, k2) => {
        const cursor = signCursor(anyKey, scope, k1);
        expect(verifyCursor(cursor, other, k1)).toEqual(other === scope ? anyKey : undefined);
        expect(verifyCursor(cursor, scope, k2)).toEqual(Buffer.compare(k1, k2) === 0 ? anyKey : undefined);
      }),
    );
  });

  it('are refused after any change of one character, unless it decodes to the same signature bytes', () => {
    const cursor = signCursor(lastKey, 'scope', key);
    const [payload = '', signature = ''] = cursor.split('.');
    assertProperty(
      fc.property(fc.nat(cursor.length - 1), replacement, (index, character) => {
        fc.pre(cursor[index] !== character);
        const altered = cursor.slice(0, index) + character + cursor.slice(index + 1);
        // base64url's last character carries 2 unused bits: a change there alone is no change of
        // the signature, which is what is checked. The payload is signed as text, so any change counts.
        const [alteredPayload, alteredSignature, ...rest] = altered.split('.');
        const sameCursor =
          rest.length === 0 &&
          alteredPayload === payload &&
          alteredSignature !== undefined &&
          Buffer.from(alteredSignature, 'base64url').equals(Buffer.from(signature, 'base64url'));
        expect(verifyCursor(altered, 'scope', key)).toEqual(sameCursor ? lastKey : undefined);
      }),
    );
  });

  it('accept a signature that differs only in the unused bits of its last character', () => {
    const cursor = signCursor(lastKey, 'scope', key);
    const last = cursor.at(-1) ?? '';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 43 characters carry 258 bits for the 256 of an HMAC-SHA256: the last one's low 2 bits are unused.
    const sibling = alphabet[alphabet.indexOf(last) ^ 1] ?? '';
    expect(verifyCursor(cursor.slice(0, -1) + sibling, 'scope', key)).toEqual(lastKey);
  });

  it('refuse garbage', () => {
    for (const garbage of ['', '.', 'a.b', 'a.b.c', 'not a cursor']) {
      expect(verifyCursor(garbage, 'scope', key)).toBeUndefined();
    }
  });
});
