import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidEmail, maxEmailLength } from '../../../functions/domain/email';
import { integerNearBounds } from '../../support/integer-near-bounds';
import { assertProperty } from '../../support/property';

describe('isValidEmail (the interface’s rule as worded)', () => {
  it.each([
    'ana@example.com',
    'ana.maria@example.co',
    'first+tag@sub.example.org',
    "o'brien@example.ie",
    'x@a.io',
    'trailing.@example.com',
  ])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    ['a leading dot', '.ana@example.com'],
    ['consecutive dots', 'ana..maria@example.com'],
    ['a one-letter TLD', 'ana@example.c'],
    ['a numeric TLD', 'ana@example.123'],
    ['no domain dot', 'ana@localhost'],
    ['no at sign', 'ana.example.com'],
    ['two at signs', 'a@b@example.com'],
    ['a space', 'ana maria@example.com'],
    ['an empty local part', '@example.com'],
    ['a label starting with a hyphen', 'ana@-example.com'],
  ])('refuses %s', (_label, email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it('answers every address as the rule says', () => {
    assertProperty(
      fc.property(anyAddress, (address) => {
        expect(isValidEmail(address)).toBe(followsTheRule(address));
      }),
    );
  });

  it(`accepts ${maxEmailLength} characters and refuses ${maxEmailLength + 1}`, () => {
    const domain = '@example.com';
    expect(isValidEmail('a'.repeat(maxEmailLength - domain.length) + domain)).toBe(true);
    expect(isValidEmail('a'.repeat(maxEmailLength + 1 - domain.length) + domain)).toBe(false);
  });

  it('takes domain labels of 1 to 63 characters', () => {
    expect(isValidEmail(`ana@${'a'.repeat(63)}.com`)).toBe(true);
    expect(isValidEmail(`ana@${'a'.repeat(64)}.com`)).toBe(false);
    expect(isValidEmail('ana@a.b.com')).toBe(true);
    expect(isValidEmail('ana@a..com')).toBe(false);
  });
});

/** RFC 5322's atom characters, the local part's alphabet besides the dot. */
const atomCharacters = new Set(
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+/=?^_`{|}~-",
);
const isLetter = (character: string) => /^[A-Za-z]$/.test(character);
const isLetterOrDigit = (character: string) => /^[A-Za-z0-9]$/.test(character);

/**
 * The interface's rule, step by step: at most 254 characters, one `@`; a local part of atom characters
 * and dots, not starting with a dot, without two dots in a row; a domain of labels (letters, digits,
 * inner hyphens, 1–63 characters) ending in a TLD of 2 or more letters.
 */
function followsTheRule(address: string): boolean {
  if (address.length > maxEmailLength) return false;
  const parts = address.split('@');
  if (parts.length !== 2) return false;
  const [local = '', domain = ''] = parts;
  if (local === '' || local.startsWith('.') || local.includes('..')) return false;
  if (![...local].every((character) => character === '.' || atomCharacters.has(character))) return false;
  const labels = domain.split('.');
  const tld = labels.pop() ?? '';
  if (labels.length === 0 || tld.length < 2 || ![...tld].every(isLetter)) return false;
  return labels.every(
    (label) =>
      label.length >= 1 &&
      label.length <= 63 &&
      [...label].every((character) => character === '-' || isLetterOrDigit(character)) &&
      !label.startsWith('-') &&
      !label.endsWith('-'),
  );
}

/**
 * Each part is mostly one that follows the rule, so a run meets addresses that differ from a valid
 * one in one part only; the rest use the characters the rule is about, and some it refuses.
 */
const atomText = fc.string({
  unit: fc.constantFrom('a', 'Z', '0', '+', "'", '~', '`', '/', '='),
  minLength: 1,
  maxLength: 6,
});
const local = fc.oneof(
  {
    arbitrary: fc.array(atomText, { minLength: 1, maxLength: 3 }).map((atoms) => atoms.join('.')),
    weight: 3,
  },
  {
    arbitrary: fc.string({ unit: fc.constantFrom('a', '.', '@', ' ', '"', '(', 'é', '\n'), maxLength: 6 }),
    weight: 1,
  },
);
const validLabel = fc
  .tuple(fc.constantFrom('a', 'Z', '9'), fc.string({ unit: fc.constantFrom('a', '9', '-'), maxLength: 3 }))
  .map(([first, rest]) => (rest === '' ? first : `${first}${rest}${first}`));
const label = fc.oneof(
  { arbitrary: validLabel, weight: 3 },
  // Around the 63-character limit of a label.
  { arbitrary: integerNearBounds({ min: 62, max: 64 }).map((length) => 'a'.repeat(length)), weight: 1 },
  { arbitrary: fc.string({ unit: fc.constantFrom('a', '-', '_', 'é'), maxLength: 3 }), weight: 1 },
);
const atomTld = fc.string({ unit: fc.constantFrom('a', 'Z'), minLength: 2, maxLength: 6 });
const tld = fc.oneof(
  { arbitrary: atomTld, weight: 3 },
  { arbitrary: fc.constantFrom('', 'c', 'c0m', 'co-m', '123'), weight: 1 },
);

const address = (parts: { local: string; labels: readonly string[]; tld: string }) =>
  `${parts.local}@${[...parts.labels, parts.tld].join('.')}`;

/**
 * Addresses built from those parts; valid ones lengthened to 253–255 characters (the local part
 * padded), so the length limit is met in every run; fast-check's addresses; any text.
 */
const anyAddress = fc.oneof(
  {
    arbitrary: fc
      .record({ local, labels: fc.array(label, { minLength: 1, maxLength: 3 }), tld })
      .map(address),
    weight: 4,
  },
  {
    arbitrary: fc
      .tuple(
        fc.record({
          local: atomText,
          labels: fc.array(validLabel, { minLength: 1, maxLength: 2 }),
          tld: atomTld,
        }),
        integerNearBounds({ min: maxEmailLength - 1, max: maxEmailLength + 1 }),
      )
      .map(([parts, length]) => {
        const short = address(parts);
        return `${'x'.repeat(Math.max(0, length - short.length))}${short}`;
      }),
    weight: 2,
  },
  { arbitrary: fc.emailAddress(), weight: 1 },
  { arbitrary: fc.string(), weight: 1 },
  {
    arbitrary: fc.constantFrom('@', 'a@b', 'a@b.c', '.a@b.co', 'a..b@c.co', 'a@b..co', 'a@-b.co'),
    weight: 1,
  },
);
