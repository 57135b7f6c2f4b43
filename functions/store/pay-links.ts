import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { canonicalJson } from '../domain/canonical-json';
import { type Invoice, type PayerInvoice, payerInvoiceFields } from '../domain/invoice';
import { invoiceSlugHash } from '../domain/invoice-slug';
import { batchGet } from './batch-get';
import { documentClient, tableName } from './client';
import { storedMerchantName } from './invoices';
import { keys } from './keys';
import { allOf, type Condition, lockHeldBy, lockRelease } from './processor-calls';

export interface PayLinkTarget {
  readonly invoice: PayerInvoice;
  readonly merchantName: string;
  readonly slugHash: string;
  /**
   * Whether the invoice item carries the slug's hash as its GSI3 key. Invoices written before the
   * pay-link index don't until their next write.
   */
  readonly keyed: boolean;
}

/** `indexed` tries the pay-link index first; `consistent` reads only what was committed. */
export type PayLinkRead = 'indexed' | 'consistent';

/**
 * The invoice a pay-link slug leads to, with the name of its issuer, found by the slug's SHA-256,
 * never the slug. First one Query of the pay-link index (GSI3). The index follows the table a moment
 * late, so a miss (a slug issued or rotated a moment ago, or an invoice not written since the index
 * exists) is read again through the slug's lookup item, which every slug change writes in its own
 * transaction: then the invoice must still hold this very slug.
 */
export async function findPayLinkTarget(
  slug: string,
  read: PayLinkRead = 'indexed',
): Promise<PayLinkTarget | undefined> {
  const slugHash = invoiceSlugHash(slug);
  if (read === 'indexed') {
    const indexed = await findInIndex(slugHash);
    if (indexed !== undefined) return indexed;
  }
  return findThroughLookup(slug, slugHash);
}

async function findInIndex(slugHash: string): Promise<PayLinkTarget | undefined> {
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI3',
      KeyConditionExpression: 'GSI3PK = :payLink',
      ExpressionAttributeValues: { ':payLink': keys.invoiceBySlug(slugHash).GSI3PK },
      Limit: 1,
    }),
  );
  const item = Items?.[0];
  if (item === undefined) return undefined;
  const invoice = toPayerInvoice(item);
  // An invoice created before its issuer's name was kept on it names it through its merchant.
  const merchantName = storedMerchantName(item) ?? (await merchantNameOf(invoice.merchantId));
  return { invoice, merchantName, slugHash, keyed: true };
}

async function findThroughLookup(slug: string, slugHash: string): Promise<PayLinkTarget | undefined> {
  const { Item: link } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.invoiceSlug(slugHash), ConsistentRead: true }),
  );
  if (link === undefined) return undefined;
  const merchantId = String(link.merchantId);
  const invoiceKey = keys.invoice(merchantId, String(link.invoiceId));
  const merchantKey = keys.merchant(merchantId);
  const items = await batchGet([invoiceKey, merchantKey]);
  const invoiceItem = items.find((item) => item.SK === invoiceKey.SK);
  const merchantItem = items.find((item) => item.SK === merchantKey.SK);
  if (invoiceItem === undefined || invoiceItem.invoiceUrlSlug !== slug) return undefined;
  return {
    invoice: toPayerInvoice(invoiceItem),
    merchantName: storedMerchantName(invoiceItem) ?? nameOf(merchantItem),
    slugHash,
    keyed: typeof invoiceItem.GSI3PK === 'string',
  };
}

async function merchantNameOf(merchantId: string): Promise<string> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.merchant(merchantId) }),
  );
  return nameOf(Item);
}

function nameOf(merchantItem: Record<string, unknown> | undefined): string {
  return typeof merchantItem?.name === 'string' ? merchantItem.name : '';
}

function toPayerInvoice(item: Record<string, unknown>): PayerInvoice {
  return Object.fromEntries(
    payerInvoiceFields.flatMap((field) => (item[field] === undefined ? [] : [[field, item[field]]])),
  ) as unknown as PayerInvoice;
}

/**
 * Holds while the invoice still has the slug that was followed. An invoice written before the index
 * has no GSI3 key, and any write since (a rotation among them) gives it one, so there its absence
 * proves the slug.
 */
function slugStill(target: PayLinkTarget): Condition {
  return target.keyed
    ? { expression: 'GSI3PK = :payLink', values: { ':payLink': keys.invoiceBySlug(target.slugHash).GSI3PK } }
    : { expression: 'attribute_not_exists(GSI3PK)' };
}

/** Holds while the invoice is as the pay link read it: the same revision, and still the same slug. */
export function payLinkAsRead(target: PayLinkTarget): Condition {
  const slug = slugStill(target);
  return {
    expression: `#revision = :expected AND ${slug.expression}`,
    names: { '#revision': 'currentRevisionNumber' },
    values: { ':expected': target.invoice.currentRevisionNumber, ...slug.values },
  };
}

/**
 * The paid invoice, written by the payment call that holds its lock (and so releases it), only while
 * the invoice still has the slug that was paid: a rotated-out slug never pays, even while the index
 * still shows it. An Update of what the payment changed, because the pay link read only the index's
 * share of the invoice; it also gives an invoice written before the index its GSI3 key and its
 * issuer's name.
 */
export function buildPayLinkPayment(
  target: PayLinkTarget,
  next: PayerInvoice & Pick<Invoice, 'updatedAt'>,
  callId: string,
) {
  const read: Record<string, unknown> = { ...target.invoice };
  const changed = Object.entries(next).filter(
    ([name, value]) => canonicalJson(value) !== canonicalJson(read[name]),
  );
  const indexKeys = {
    ...keys.invoiceIndexes(next.merchantId, next.customerId, next.status, next.invoiceId),
    ...keys.invoiceBySlug(target.slugHash),
  };
  const sets = [...changed, ...Object.entries(indexKeys)];
  const assignments = sets.map((_, position) => `#set${position} = :set${position}`);
  const condition = allOf(lockHeldBy(callId), slugStill(target));
  return {
    Update: {
      TableName: tableName(),
      Key: keys.invoice(next.merchantId, next.invoiceId),
      UpdateExpression:
        `SET ${[...assignments, '#merchantName = if_not_exists(#merchantName, :merchantName)'].join(', ')} ` +
        `REMOVE ${lockRelease.attributes.join(', ')}`,
      ConditionExpression: condition.ConditionExpression,
      ExpressionAttributeNames: {
        ...condition.ExpressionAttributeNames,
        ...lockRelease.names,
        '#merchantName': 'merchantName',
        ...Object.fromEntries(sets.map(([name], position) => [`#set${position}`, name])),
      },
      ExpressionAttributeValues: {
        ...condition.ExpressionAttributeValues,
        ':merchantName': target.merchantName,
        ...Object.fromEntries(sets.map(([, value], position) => [`:set${position}`, value])),
      },
    },
  };
}
