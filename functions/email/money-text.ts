import type { Currency, Money } from '../domain/money';
import { wholeNumberText } from './whole-number-text';

/** The symbols en-US writes: a Canadian amount never reads as a US one. */
const symbols: Readonly<Record<Currency, string>> = { USD: '$', CAD: 'CA$' };

/**
 * An amount of minor units as `Intl.NumberFormat('en-US', { style: 'currency' })` writes it,
 * `$1,234.50` or `CA$1,234.50`, without loading Intl (see `wholeNumberText`). Both currencies have
 * two decimals; the arithmetic is on bigint, so the largest amount keeps its last cent.
 */
export function moneyText(money: Money): string {
  const minor = BigInt(money.amount);
  const units = minor < 0n ? -minor : minor;
  const cents = String(units % 100n).padStart(2, '0');
  return `${minor < 0n ? '-' : ''}${symbols[money.currency]}${wholeNumberText(units / 100n)}.${cents}`;
}
