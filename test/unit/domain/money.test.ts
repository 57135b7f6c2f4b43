import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AmountOverflowError, maxAmount, multiplyAmount, sumAmounts } from '../../../functions/domain/money';

describe('sumAmounts', () => {
  it('is exact up to the bound and refuses anything past it', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: maxAmount }), { maxLength: 100 }), (amounts) => {
        const exact = amounts.reduce((sum, amount) => sum + BigInt(amount), 0n);
        if (exact <= BigInt(maxAmount)) expect(sumAmounts(amounts)).toBe(Number(exact));
        else expect(() => sumAmounts(amounts)).toThrow(AmountOverflowError);
      }),
    );
  });

  it('accepts the bound itself', () => {
    expect(sumAmounts([maxAmount - 1, 1])).toBe(maxAmount);
    expect(() => sumAmounts([maxAmount, 1])).toThrow(AmountOverflowError);
  });
});

describe('multiplyAmount', () => {
  it('is exact up to the bound and refuses anything past it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: maxAmount }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (unit, quantity) => {
          const exact = BigInt(unit) * BigInt(quantity);
          if (exact <= BigInt(maxAmount)) expect(multiplyAmount(unit, quantity)).toBe(Number(exact));
          else expect(() => multiplyAmount(unit, quantity)).toThrow(AmountOverflowError);
        },
      ),
    );
  });
});
