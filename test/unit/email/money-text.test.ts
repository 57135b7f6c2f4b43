import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxAmount } from '../../../functions/domain/money';
import { moneyText } from '../../../functions/email/money-text';
import { wholeNumberText } from '../../../functions/email/whole-number-text';
import { integerNearBounds } from '../../support/integer-near-bounds';
import { assertProperty } from '../../support/property';

/** What Intl writes for the same amount: the decimal goes in as a string, so no cent is lost to a double. */
function intlText(amount: number, currency: 'USD' | 'CAD'): string {
  const minor = BigInt(amount);
  const decimal = `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}` as `${number}`;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(decimal);
}

describe('moneyText', () => {
  it('writes US dollars as $1,234.50 and Canadian dollars as CA$1,234.50', () => {
    expect(moneyText({ amount: 123450, currency: 'USD' })).toBe('$1,234.50');
    expect(moneyText({ amount: 123450, currency: 'CAD' })).toBe('CA$1,234.50');
    expect(moneyText({ amount: 5, currency: 'USD' })).toBe('$0.05');
    expect(moneyText({ amount: 0, currency: 'CAD' })).toBe('CA$0.00');
  });

  it('keeps every cent of the largest amount', () => {
    expect(moneyText({ amount: maxAmount, currency: 'USD' })).toBe('$90,071,992,547,409.91');
  });

  it('writes every amount from 0 to the largest as Intl.NumberFormat en-US does', () => {
    assertProperty(
      fc.property(
        fc.oneof(integerNearBounds({ min: 0, max: maxAmount }), fc.integer({ min: 0, max: 10_000_000 })),
        fc.constantFrom('USD' as const, 'CAD' as const),
        (amount, currency) => {
          expect(moneyText({ amount, currency })).toBe(intlText(amount, currency));
        },
      ),
    );
  });
});

describe('wholeNumberText', () => {
  it('groups digits in threes as Intl en-US does, for any safe integer', () => {
    expect(wholeNumberText(1000000)).toBe('1,000,000');
    assertProperty(
      fc.property(integerNearBounds({ min: -maxAmount, max: maxAmount }), (value) => {
        expect(wholeNumberText(value)).toBe(new Intl.NumberFormat('en-US').format(value));
      }),
    );
  });
});
