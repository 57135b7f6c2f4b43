import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSigningSecret, newSigningSecret } from '../../../functions/domain/webhook-secret';

const random = (size: number) => randomBytes(size);

describe('newSigningSecret', () => {
  it('is whsec_ followed by 32 random bytes in standard base64 with its padding', () => {
    const secret = newSigningSecret(random);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secret).toHaveLength(6 + 44);
    const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64');
    expect(bytes).toHaveLength(32);
    expect(`whsec_${bytes.toString('base64')}`).toBe(secret);
  });

  it('encodes exactly the bytes the injected generator returns', () => {
    const counting = (size: number) => Uint8Array.from({ length: size }, (_, index) => index);
    expect(newSigningSecret(counting)).toBe('whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=');
  });

  it('uses the standard alphabet (+ and /), not base64url', () => {
    expect(newSigningSecret((size) => new Uint8Array(size).fill(0xfb))).toBe(
      'whsec_+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/s=',
    );
  });

  it('makes a different secret every time', () => {
    const secrets = new Set(Array.from({ length: 100 }, () => newSigningSecret(random)));
    expect(secrets.size).toBe(100);
  });

  it('refuses a generator that returns the wrong number of bytes', () => {
    expect(() => newSigningSecret(() => new Uint8Array(31))).toThrow(RangeError);
  });
});

describe('isSigningSecret', () => {
  it('accepts every secret newSigningSecret can make', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) =>
        isSigningSecret(newSigningSecret(() => bytes)),
      ),
    );
  });

  it.each([
    ['a non-string', 42],
    ['an empty string', ''],
    ['a missing prefix', 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='],
    ['an upper-case prefix', 'WHSEC_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='],
    ['missing padding', 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8'],
    ['the base64url alphabet', 'whsec_-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_s='],
    ['31 bytes', `whsec_${Buffer.alloc(31).toString('base64')}`],
    ['33 bytes', `whsec_${Buffer.alloc(33).toString('base64')}`],
    ['a last character with unused bits set', 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh9='],
    ['surrounding whitespace', ' whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='],
  ])('refuses %s', (_label, value) => {
    expect(isSigningSecret(value)).toBe(false);
  });
});
