import type { Currency, Money } from '../domain/money';

/** One formatter per currency, made on first use: en-US writes a Canadian amount `CA$…`. */
const formatters = new Map<Currency, Intl.NumberFormat>();

/**
 * An amount of minor units as an email shows it, `$1,234.50` or `CA$1,234.50`. Both currencies
 * have two decimals; the decimal goes to Intl as a string, so the largest amount keeps its last cent.
 */
export function moneyText(money: Money): string {
  let formatter = formatters.get(money.currency);
  if (formatter === undefined) {
    formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency: money.currency });
    formatters.set(money.currency, formatter);
  }
  const minor = BigInt(money.amount);
  const units = minor < 0n ? -minor : minor;
  const decimal = `${minor < 0n ? '-' : ''}${units / 100n}.${String(units % 100n).padStart(2, '0')}`;
  return formatter.format(decimal as `${number}`);
}
