import { batchGet } from './batch-get';
import { keys } from './keys';

export interface PaymentReferences {
  readonly customerExists: boolean;
  /** The named price as stored, when a product and price were named and exist under the merchant. */
  readonly price: { readonly currency: string; readonly productActive: boolean } | undefined;
}

/**
 * The customer and, when named, the product and price of a sandbox payment, in one BatchGetItem.
 * All keys are in the caller's partition, so another merchant's ids come back absent.
 */
export async function loadPaymentReferences(
  merchantId: string,
  customerId: string,
  named: { readonly productId: string; readonly priceId: string } | undefined,
): Promise<PaymentReferences> {
  const customerKey = keys.customer(merchantId, customerId);
  const productKey = named === undefined ? undefined : keys.product(merchantId, named.productId);
  const priceKey = named === undefined ? undefined : keys.price(merchantId, named.productId, named.priceId);
  const items = await batchGet([customerKey, ...(productKey && priceKey ? [productKey, priceKey] : [])]);
  const bySortKey = new Map(items.map((item) => [String(item.SK), item]));
  const product = productKey === undefined ? undefined : bySortKey.get(productKey.SK);
  const price = priceKey === undefined ? undefined : bySortKey.get(priceKey.SK);
  return {
    customerExists: bySortKey.has(customerKey.SK),
    price:
      product === undefined || price === undefined
        ? undefined
        : { currency: String(price.currency), productActive: product.status === 'active' },
  };
}
