import { describe, expect, it } from 'vitest';
import { maxAmount } from '../../../functions/domain/money';
import { moneyText } from '../../../functions/email/money-text';

describe('moneyText', () => {
  it('writes US dollars as $1,234.50 and Canadian dollars as CA$1,234.50', () => {
    expect(moneyText({ amount: 123450, currency: 'USD' })).toBe('$1,234.50');
    expect(moneyText({ amount: 123450, currency: 'CAD' })).toBe('CA$1,234.50');
    expect(moneyText({ amount: 5, currency: 'USD' })).toBe('$0.05');
    expect(moneyText({ amount: 0, currency: 'CAD' })).toBe('CA$0.00');
    expect(moneyText({ amount: -250, currency: 'USD' })).toBe('-$2.50');
  });

  it('keeps every cent of the largest amount', () => {
    expect(moneyText({ amount: maxAmount, currency: 'USD' })).toBe('$90,071,992,547,409.91');
  });
});
