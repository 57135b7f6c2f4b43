import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../functions/domain/canonical-json';
import { requestFingerprint } from '../../../functions/domain/idempotency';
import { assertProperty } from '../../support/property';

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

/**
 * What canonical JSON is (docs/decisions/idempotency.md): members sorted by key in UTF-16 code unit order
 * (the default sort), members that are undefined left out, no whitespace; anything else as
 * JSON.stringify writes it, and undefined alone as null.
 */
function expectedCanonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(expectedCanonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).filter(([, member]) => member !== undefined);
    const keys = members.map(([key]) => key).sort();
    const byKey = new Map(members);
    return `{${keys.map((key) => `${JSON.stringify(key)}:${expectedCanonical(byKey.get(key))}`).join(',')}}`;
  }
  return value === undefined ? 'null' : (JSON.stringify(value) ?? 'null');
}

/** The JSON value a payload stands for once sent. */
const sentAs = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));
/** What a fingerprint must tell apart: the body sent, an absent one (null, undefined) being `{}`. */
const bodyOf = (value: unknown): unknown => sentAs(value ?? {});

/**
 * Keys that sort differently by code unit, by number and by code point (integer-like keys, which
 * objects enumerate first; astral characters, whose surrogates sort below U+FFFF), and any text.
 */
const key = fc.oneof(
  fc.string(),
  fc.nat().map(String),
  fc.constantFrom('', '__proto__', 'constructor', '0', '2', '10', 'a', 'B', '\u{1F600}', '\uFFFF', 'a b'),
);

/** JSON payloads as requests carry them, with members that are undefined (dropped when sent). */
const payload: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -0, 1, -1, 1.5, 1e21, Number.MAX_SAFE_INTEGER, ''),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, fc.oneof(tie('value'), fc.constant(undefined)), { maxKeys: 5 }),
  ),
})).value;

describe('canonicalJson', () => {
  it('sorts members by key at every depth and writes no whitespace', () => {
    assertProperty(
      fc.property(fc.oneof(payload, fc.jsonValue()), (value) => {
        expect(canonicalJson(value)).toBe(expectedCanonical(value));
      }),
      {
        examples: [
          [{ '10': 1, '2': 2 }],
          [{ '\uFFFF': 1, '\u{1F600}': 2 }],
          [{ a: undefined }],
          [[undefined]],
        ],
      },
    );
  });

  it('does not depend on key order at any depth', () => {
    assertProperty(
      fc.property(fc.oneof(payload, fc.jsonValue()), (value) => {
        expect(canonicalJson(reordered(value))).toBe(canonicalJson(value));
      }),
    );
  });

  it('parses back to the same value', () => {
    assertProperty(
      fc.property(fc.oneof(payload, fc.jsonValue()), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(sentAs(value));
      }),
    );
  });

  it('gives two payloads the same fingerprint exactly when they are the same JSON value once sent', () => {
    // The second payload is the first reordered, another one, or the first inside another.
    const pair = fc
      .tuple(payload, payload, fc.constantFrom('reordered', 'other', 'wrapped'))
      .map(([first, other, how]) => {
        if (how === 'reordered') return [first, reordered(first)] as const;
        if (how === 'other') return [first, other] as const;
        return [first, [first]] as const;
      });
    assertProperty(
      fc.property(pair, ([first, second]) => {
        const same = isDeepStrictEqual(bodyOf(first), bodyOf(second));
        expect(requestFingerprint(first) === requestFingerprint(second)).toBe(same);
      }),
      {
        examples: [
          [[{ a: [1, 2] }, { a: [2, 1] }]],
          [[{ a: 1 }, { a: '1' }]],
          [[{ a: undefined, b: 1 }, { b: 1 }]],
          [[{}, undefined]],
          [[null, undefined]],
          [[0, -0]],
        ],
      },
    );
  });

  it('tells different payloads apart', () => {
    expect(requestFingerprint({ name: 'a' })).not.toBe(requestFingerprint({ name: 'b' }));
    expect(requestFingerprint({ a: 1, b: [1, 2] })).toBe(requestFingerprint({ b: [1, 2], a: 1 }));
    expect(requestFingerprint({ a: [1, 2] })).not.toBe(requestFingerprint({ a: [2, 1] }));
  });
});
