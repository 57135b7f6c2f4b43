import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidEmail } from '../../../functions/domain/email';

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

  it('never accepts a local part with a leading dot or a double dot', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        const [local = ''] = email.split('@');
        if (local.startsWith('.') || local.includes('..')) expect(isValidEmail(email)).toBe(false);
      }),
    );
  });

  it('accepts generated addresses whose TLD has 2+ letters and whose local part follows the rule', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        const [local = '', domain = ''] = email.split('@');
        const tld = domain.split('.').at(-1) ?? '';
        fc.pre(/^[A-Za-z]{2,}$/.test(tld) && domain.includes('.') && email.length <= 254);
        fc.pre(!local.startsWith('.') && !local.includes('..'));
        expect(isValidEmail(email)).toBe(true);
      }),
    );
  });
});
