import { InvalidFields } from './errors';
import { maxAmount } from './money';

/**
 * The amounts a payment or refund may move: at least one minor unit, at most the integer bound
 * (docs/architecture.md#conventions-for-every-endpoint). Checked in the domain as well as by the route
 * schemas, so no caller can record a zero, negative or fractional payment.
 */
export function requirePaymentAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 1) {
    throw new InvalidFields([{ path: 'amount', message: `must be an integer from 1 to ${maxAmount}.` }]);
  }
}
