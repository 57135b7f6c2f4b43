/**
 * Money is integer minor units (docs/architecture.md#conventions-for-every-endpoint); the largest amount is
 * 2^53 − 1.
 */
export const maxAmount = Number.MAX_SAFE_INTEGER;

export const Currency = { USD: 'USD', CAD: 'CAD' } as const;
export type Currency = (typeof Currency)[keyof typeof Currency];

export interface Money {
  readonly amount: number;
  readonly currency: Currency;
}

/** Thrown when a computed amount would pass `maxAmount`; callers turn it into a 400 on a field. */
export class AmountOverflowError extends Error {
  override name = 'AmountOverflowError';
}

/** a × b, exactly, or AmountOverflowError past the bound. */
export function multiplyAmount(a: number, b: number): number {
  return checked(BigInt(a) * BigInt(b));
}

/** The exact sum, or AmountOverflowError past the bound. */
export function sumAmounts(amounts: readonly number[]): number {
  return checked(amounts.reduce((sum, amount) => sum + BigInt(amount), 0n));
}

function checked(value: bigint): number {
  if (value > BigInt(maxAmount) || value < -BigInt(maxAmount)) {
    throw new AmountOverflowError(`Amount ${value} is past ${maxAmount}`);
  }
  return Number(value);
}
