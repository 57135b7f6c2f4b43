import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidEmail, maxEmailLength } from '../../../functions/domain/email';
import { assertProperty } from '../../support/property';

describe('isValidEmail (the spec rule as worded)', () => {
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
 * The spec's rule, step by step: at most 254 characters, one `@`; a local part of atom characters
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

/** Characters every rule is about, and some it refuses. */
const localCharacter = fc.constantFrom('a', 'Z', '0', '.', '+', "'", '~', '`', '@', ' ', '"', '(', 'é', '\n');
const labelCharacter = fc.constantFrom('a', 'Z', '9', '-', '_', 'é');
const label = fc.oneof(
  fc.string({ unit: labelCharacter, maxLength: 4 }),
  // Around the 63-character limit of a label.
  fc.integer({ min: 61, max: 65 }).map((length) => 'a'.repeat(length)),
);
const tld = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'Z', '1', '-'), maxLength: 4 }),
  fc.constantFrom('', 'c', 'io', 'com', 'c0m'),
);

/**
 * Addresses built from the parts the rule is about, some padded to 253–255 characters; besides
 * them, fast-check's addresses and any text.
 */
const anyAddress = fc.oneof(
  fc
    .record({
      local: fc.string({ unit: localCharacter, maxLength: 8 }),
      labels: fc.array(label, { maxLength: 3 }),
      tld,
      padTo: fc.option(fc.integer({ min: maxEmailLength - 1, max: maxEmailLength + 1 })),
    })
    .map(({ local, labels, tld, padTo }) => {
      const domain = [...labels, tld].join('.');
      const address = `${local}@${domain}`;
      return padTo === null ? address : `${'x'.repeat(Math.max(0, padTo - address.length))}${address}`;
    }),
  fc.emailAddress(),
  fc.string(),
);
