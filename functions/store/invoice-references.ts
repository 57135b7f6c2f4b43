import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { CatalogView, RequestedLine } from '../domain/invoice';
import type { Currency } from '../domain/money';
import { documentClient, tableName } from './client';
import { counterValue } from './invoices';
import { keys } from './keys';

/** BatchGetItem takes at most 100 keys per request. */
const batchLimit = 100;

export interface InvoiceReferences {
  readonly customerExists: boolean;
  readonly invoiceCounter: number;
  readonly catalog: CatalogView;
}

/**
 * Everything an invoice create needs to read, in one BatchGetItem: the customer, the merchant's
 * invoice counter, and each distinct product and price the lines name. All keys are inside the
 * caller's partition, so another merchant's ids simply come back absent. Only an invoice naming
 * more than 98 distinct products and prices needs a second, parallel batch.
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
    catalog: { product: (id) => products.get(id), price: (id) => prices.get(id) },
  };
}

/** Strongly consistent, so a counter or product written a moment ago is seen. */
export async function batchGet(allKeys: Record<string, string>[]): Promise<Record<string, unknown>[]> {
  const chunks: Record<string, string>[][] = [];
  for (let index = 0; index < allKeys.length; index += batchLimit)
    chunks.push(allKeys.slice(index, index + batchLimit));
  const pages = await Promise.all(chunks.map((chunk) => batchGetChunk(chunk)));
  return pages.flat();
}

async function batchGetChunk(chunk: Record<string, string>[]): Promise<Record<string, unknown>[]> {
  const table = tableName();
  const items: Record<string, unknown>[] = [];
  let pending: Record<string, unknown>[] | undefined = chunk;
  for (let attempt = 0; pending !== undefined && pending.length > 0; attempt += 1) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * 2 ** attempt));
    const result: BatchGetCommandOutput = await documentClient().send(
      new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
    );
    items.push(...(result.Responses?.[table] ?? []));
    pending = result.UnprocessedKeys?.[table]?.Keys;
    if (attempt > 8 && pending !== undefined && pending.length > 0)
      throw new Error('BatchGetItem left keys unprocessed');
  }
  return items;
}
