import type { Currency } from './money';

/**
 * A price of one catalog product, in one currency, in integer minor units
 * (docs/architecture.md#conventions-for-every-endpoint).
 */
export interface Price {
  readonly priceId: string;
  readonly productId: string;
  readonly merchantId: string;
  readonly unitAmount: number;
  readonly currency: Currency;
  readonly createdAt: string;
}

/**
 * Prices are immutable once created: a new amount is a new price, so an invoice line that names a
 * price always means the amount it meant when it was written.
 */
export function newPrice(input: {
  priceId: string;
  productId: string;
  merchantId: string;
  unitAmount: number;
  currency: Currency;
  createdAt: string;
}): Price {
  return {
    priceId: input.priceId,
    productId: input.productId,
    merchantId: input.merchantId,
    unitAmount: input.unitAmount,
    currency: input.currency,
    createdAt: input.createdAt,
  };
}
