import type { CatalogView, RequestedLine } from '../domain/invoice';
import type { Currency } from '../domain/money';
import { batchGet } from './batch-get';
import { counterValue } from './invoices';
import { keys } from './keys';

export interface InvoiceReferences {
  readonly customerExists: boolean;
  readonly invoiceCounter: number;
  /** The merchant's name, kept on the invoice for its pay page; absent only without a merchant item. */
  readonly merchantName: string | undefined;
  readonly catalog: CatalogView;
}

/**
 * Everything an invoice create needs to read, in one BatchGetItem: the customer, the merchant (for
 * the name its pay page shows), the merchant's invoice counter, and each distinct product and price
 * the lines name. All keys are inside the caller's partition, so another merchant's ids simply come
 * back absent. Only an invoice naming more than 97 distinct products and prices needs a second,
 * parallel batch.
 */
export async function loadInvoiceReferences(
  merchantId: string,
  customerId: string,
  lines: readonly RequestedLine[],
): Promise<InvoiceReferences> {
  const charges = lines.flatMap((line) => (line.kind === 'product_charge' ? [line] : []));
  const wanted = new Map<string, Record<string, string>>();
  const add = (key: { PK: string; SK: string }) => wanted.set(`${key.PK}|${key.SK}`, key);
  add(keys.customer(merchantId, customerId));
  add(keys.merchant(merchantId));
  add(keys.invoiceNumberCounter(merchantId));
  for (const line of charges) {
    add(keys.product(merchantId, line.productId));
    add(keys.price(merchantId, line.productId, line.priceId));
  }
  const items = await batchGet([...wanted.values()]);
  const bySortKey = new Map(items.map((item) => [String(item.SK), item]));
  const products = new Map<string, { name: string; active: boolean }>();
  const prices = new Map<string, { productId: string; unitAmount: number; currency: Currency }>();
  for (const line of charges) {
    const product = bySortKey.get(keys.product(merchantId, line.productId).SK);
    if (product !== undefined) {
      products.set(line.productId, { name: String(product.name), active: product.status === 'active' });
    }
    const price = bySortKey.get(keys.price(merchantId, line.productId, line.priceId).SK);
    if (price !== undefined) {
      prices.set(line.priceId, {
        productId: String(price.productId),
        unitAmount: Number(price.unitAmount),
        currency: price.currency as Currency,
      });
    }
  }
  return {
    customerExists: bySortKey.has(keys.customer(merchantId, customerId).SK),
    invoiceCounter: counterValue(bySortKey.get(keys.invoiceNumberCounter(merchantId).SK)),
    merchantName: merchantNameOf(bySortKey.get(keys.merchant(merchantId).SK)),
    catalog: { product: (id) => products.get(id), price: (id) => prices.get(id) },
  };
}

function merchantNameOf(item: Record<string, unknown> | undefined): string | undefined {
  return typeof item?.name === 'string' ? item.name : undefined;
}
