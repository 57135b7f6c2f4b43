import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSigningSecret, newSigningSecret } from '../../../functions/domain/webhook-secret';
import { integerNearBounds } from '../../support/integer-near-bounds';
import { assertProperty } from '../../support/property';

const random = (size: number) => randomBytes(size);

/** 32 bytes: all clear, all set, or anything. */
const secretBytes = fc.oneof(
  fc.constant(new Uint8Array(32)),
  fc.constant(new Uint8Array(32).fill(0xff)),
  fc.uint8Array({ minLength: 32, maxLength: 32 }),
);

/**
 * Strings one edit away from a real secret: a character replaced (by one of base64, base64url,
 * padding, whitespace or anything), one inserted or removed, the last character changed, or the
 * prefix; and any text.
 */
const nearSecret = fc.oneof(
  fc
    .tuple(
      secretBytes.map((bytes) => newSigningSecret(() => bytes)),
      // The prefix, the last characters (the one with unused bits, the padding) and anywhere.
      integerNearBounds({ min: 0, max: 49 }),
      fc.constantFrom('replace', 'insert', 'remove'),
      fc.oneof(
        // Last characters that leave the unused bits clear (A, Q, g, w) or set (B, +, /), and others.
        fc.constantFrom('A', 'Q', 'g', 'w', 'B', '+', '/', '-', '_', '=', ' ', '\n'),
        fc.string({ minLength: 1, maxLength: 1 }),
      ),
    )
    .map(([secret, index, edit, character]) => {
      if (edit === 'replace') return secret.slice(0, index) + character + secret.slice(index + 1);
      if (edit === 'insert') return secret.slice(0, index) + character + secret.slice(index);
      return secret.slice(0, index) + secret.slice(index + 1);
    }),
  // Any character of the alphabet last: 16 of 64 leave the 4 unused bits clear.
  fc
    .tuple(
      secretBytes,
      fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'),
    )
    .map(([bytes, last]) => `${newSigningSecret(() => bytes).slice(0, -2)}${last}=`),
  secretBytes.map((bytes) => `WHSEC_${Buffer.from(bytes).toString('base64')}`),
  fc.string(),
);

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

  it('takes exactly 32 bytes from the generator', () => {
    assertProperty(
      fc.property(integerNearBounds({ min: 0, max: 64 }), (size) => {
        const make = () => newSigningSecret(() => new Uint8Array(size));
        if (size === 32) expect(isSigningSecret(make())).toBe(true);
        else expect(make).toThrow(RangeError);
      }),
    );
  });
});

describe('isSigningSecret', () => {
  it('accepts every secret newSigningSecret can make', () => {
    assertProperty(
      fc.property(secretBytes, (bytes) => {
        expect(isSigningSecret(newSigningSecret(() => bytes))).toBe(true);
      }),
    );
  });

  it('accepts a string exactly when it is whsec_ and the standard base64 of 32 bytes, as made', () => {
    assertProperty(
      fc.property(nearSecret, (value) => {
        const encoded = value.slice('whsec_'.length);
        const bytes = Buffer.from(encoded, 'base64');
        const made =
          value.startsWith('whsec_') && bytes.length === 32 && bytes.toString('base64') === encoded;
        expect(isSigningSecret(value)).toBe(made);
      }),
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
