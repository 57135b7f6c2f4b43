import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AmountOverflowError, maxAmount, multiplyAmount, sumAmounts } from '../../../functions/domain/money';
import { integerNearBounds } from '../../support/integer-near-bounds';
import { assertProperty } from '../../support/property';

type Outcome = { readonly amount: number } | { readonly refused: 'AmountOverflowError' | 'RangeError' };

function outcomeOf(compute: () => number): Outcome {
  try {
    return { amount: compute() };
  } catch (error) {
    if (error instanceof AmountOverflowError) return { refused: 'AmountOverflowError' };
    if (error instanceof RangeError) return { refused: 'RangeError' };
    throw error;
  }
}

/**
 * A computed amount is exact (docs/architecture.md#conventions-for-every-endpoint), and anything past
 * ±9007199254740991 is refused (the callers turn that into a 400). A value that is not an integer is no
 * amount at all: RangeError.
 */
function expectedOf(exact: bigint | undefined): Outcome {
  if (exact === undefined) return { refused: 'RangeError' };
  if (exact > BigInt(maxAmount) || exact < -BigInt(maxAmount)) return { refused: 'AmountOverflowError' };
  return { amount: Number(exact) };
}

const exactSum = (amounts: readonly number[]) =>
  amounts.every(Number.isInteger) ? amounts.reduce((sum, amount) => sum + BigInt(amount), 0n) : undefined;

/** Amounts at and around 0, 1 and the bound on both sides, past it by up to 3, and anywhere between. */
const anyAmount = fc.oneof(
  integerNearBounds({ min: 0, max: maxAmount, reach: 3 }),
  integerNearBounds({ min: -maxAmount, max: 0, reach: 3 }),
);

/** Values that are no amount: halves (whose doubles make integers), NaN, infinities, any double. */
const notAnInteger = fc.oneof(
  fc.constantFrom(0.5, -0.5, 1.5, 4503599627370495.5, Number.NaN, Number.POSITIVE_INFINITY),
  fc.double().filter((value) => !Number.isInteger(value)),
);

describe('sumAmounts', () => {
  it('is exact up to the bound and refuses anything past it', () => {
    assertProperty(
      fc.property(fc.array(anyAmount, { maxLength: 100 }), (amounts) => {
        expect(outcomeOf(() => sumAmounts(amounts))).toEqual(expectedOf(exactSum(amounts)));
      }),
    );
  });

  it('is exact for sums that land on the bound, just under it and just past it', () => {
    // Two amounts whose exact sum is the bound plus `past` (−2 … 2), on either side of zero.
    assertProperty(
      fc.property(
        integerNearBounds({ min: 0, max: maxAmount }),
        fc.integer({ min: -2, max: 2 }),
        fc.boolean(),
        (first, past, negative) => {
          const sign = negative ? -1n : 1n;
          const second = Number(sign * (BigInt(maxAmount) + BigInt(past)) - sign * BigInt(first));
          const amounts = negative ? [-first, second] : [first, second];
          expect(outcomeOf(() => sumAmounts(amounts))).toEqual(expectedOf(exactSum(amounts)));
        },
      ),
    );
  });

  it('refuses an amount that is not an integer instead of rounding it', () => {
    assertProperty(
      fc.property(fc.array(anyAmount, { maxLength: 5 }), notAnInteger, (amounts, odd) => {
        const all = [...amounts, odd];
        expect(outcomeOf(() => sumAmounts(all))).toEqual(expectedOf(exactSum(all)));
      }),
    );
  });

  it('accepts the bound itself and refuses one more, in either direction', () => {
    expect(sumAmounts([maxAmount - 1, 1])).toBe(maxAmount);
    expect(() => sumAmounts([maxAmount, 1])).toThrow(AmountOverflowError);
    expect(sumAmounts([-maxAmount + 1, -1])).toBe(-maxAmount);
    expect(() => sumAmounts([-maxAmount, -1])).toThrow(AmountOverflowError);
    expect(sumAmounts([])).toBe(0);
  });
});

describe('multiplyAmount', () => {
  it('is exact up to the bound and refuses anything past it', () => {
    assertProperty(
      fc.property(
        fc.oneof(integerNearBounds({ min: 0, max: maxAmount, reach: 3 }), notAnInteger),
        fc.oneof(integerNearBounds({ min: 1, max: 1_000_000, reach: 3 }), notAnInteger),
        (unit, quantity) => {
          const exact =
            Number.isInteger(unit) && Number.isInteger(quantity)
              ? BigInt(unit) * BigInt(quantity)
              : undefined;
          expect(outcomeOf(() => multiplyAmount(unit, quantity))).toEqual(expectedOf(exact));
        },
      ),
    );
  });

  it('is exact for products that land on the bound, just under it and just past it', () => {
    // The unit amount nearest bound ÷ quantity, give or take one: the product crosses the bound.
    assertProperty(
      fc.property(
        integerNearBounds({ min: 1, max: 1_000_000 }),
        fc.integer({ min: -1, max: 1 }),
        (quantity, offset) => {
          const unit = Math.floor(maxAmount / quantity) + offset;
          const exact = BigInt(unit) * BigInt(quantity);
          expect(outcomeOf(() => multiplyAmount(unit, quantity))).toEqual(expectedOf(exact));
        },
      ),
    );
  });

  it('accepts the bound itself and refuses one more', () => {
    expect(multiplyAmount(maxAmount, 1)).toBe(maxAmount);
    // 9007199254740991 = 6361 × 69431 × 20394401.
    expect(multiplyAmount(20394401 * 69431, 6361)).toBe(maxAmount);
    expect(() => multiplyAmount(maxAmount, 2)).toThrow(AmountOverflowError);
    expect(() => multiplyAmount(4503599627370496, 2)).toThrow(AmountOverflowError);
  });
});
