import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Invoice } from '../domain/invoice';
import { invoiceSlugHash } from '../domain/invoice-slug';
import { batchGet } from './batch-get';
import { documentClient, tableName } from './client';
import { toInvoice } from './invoices';
import { keys } from './keys';

export interface PayLinkTarget {
  readonly invoice: Invoice;
  readonly merchantName: string;
}

/**
 * The invoice a pay-link slug leads to, with its merchant's name: the slug's lookup item (keyed by
 * the slug's SHA-256, never the slug), then the invoice and merchant in one BatchGetItem. A rotated
 * slug's lookup item is gone, and the invoice must still hold this very slug.
 */
export async function findPayLinkTarget(slug: string): Promise<PayLinkTarget | undefined> {
  const { Item: link } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.invoiceSlug(invoiceSlugHash(slug)),
      ConsistentRead: true,
    }),
  );
  if (link === undefined) return undefined;
  const merchantId = String(link.merchantId);
  const invoiceKey = keys.invoice(merchantId, String(link.invoiceId));
  const merchantKey = keys.merchant(merchantId);
  const items = await batchGet([invoiceKey, merchantKey]);
  const invoiceItem = items.find((item) => item.SK === invoiceKey.SK);
  const merchantItem = items.find((item) => item.SK === merchantKey.SK);
  if (invoiceItem === undefined) return undefined;
  const invoice = toInvoice(invoiceItem);
  if (invoice.invoiceUrlSlug !== slug) return undefined;
  return { invoice, merchantName: typeof merchantItem?.name === 'string' ? merchantItem.name : '' };
}
