import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type Invoice, type InvoiceStatus, isVisibleToPayer } from '../domain/invoice';
import { invoiceSlugHash } from '../domain/invoice-slug';
import { declinesAfterChange, noDeclines, type PayLinkDeclines } from '../domain/pay-link-declines';
import type { ShardHistory } from '../domain/shard-history';
import { documentClient, tableName } from './client';
import { EntityType, keys, SortKeyPrefix } from './keys';
import { declinesAsRead, declinesAttributes, declinesOf, withoutDeclines } from './pay-link-declines';
import { allOf, type Condition, lockFree, withoutLock } from './processor-calls';
import { queryPage, queryPartitionsPage } from './query-page';
import { shardsOfPage } from './shard-pages';

/**
 * An invoice as stored: the resource, and its issuer's name as it was when the invoice was created,
 * which the pay page shows. Invoices created before the name was kept have none.
 */
export interface StoredInvoice {
  readonly invoice: Invoice;
  readonly merchantName: string | undefined;
  /** The pay link's latest declines (see `pay-link-declines.ts`); absent: none. */
  readonly payLinkDeclines?: PayLinkDeclines;
}

function invoiceItem(
  invoice: Invoice,
  merchantName: string | undefined,
  payLinkDeclines: PayLinkDeclines = noDeclines,
) {
  return {
    ...keys.invoice(invoice.merchantId, invoice.invoiceId),
    ...keys.invoiceIndexes(invoice.merchantId, invoice.customerId, invoice.status, invoice.invoiceId),
    // Sparse: a draft has no pay link yet, so it stays out of the pay-link index.
    ...(isVisibleToPayer(invoice) ? keys.invoiceBySlug(invoiceSlugHash(invoice.invoiceUrlSlug)) : {}),
    entityType: EntityType.invoice,
    ...invoice,
    ...(merchantName === undefined ? {} : { merchantName }),
    ...declinesAttributes(payLinkDeclines),
  };
}

export function buildPutNewInvoice(invoice: Invoice, merchantName: string | undefined) {
  return {
    Put: {
      TableName: tableName(),
      Item: invoiceItem(invoice, merchantName),
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** Holds while the stored invoice is still at the revision a change was computed from. */
export function invoiceAsRead(invoice: Pick<Invoice, 'currentRevisionNumber'>): Condition {
  return {
    expression: '#revision = :expected',
    names: { '#revision': 'currentRevisionNumber' },
    values: { ':expected': invoice.currentRevisionNumber },
  };
}

/**
 * Replaces the invoice with its next revision, only while the stored revision is the one the change
 * was computed from, so two racing transitions can't both apply, and while no payment of it is at
 * the processor (`lockFree`). The issuer's name stays as it was stored, and so do the pay link's
 * declines, which change without a new revision (a decline since the read fails the condition too),
 * but for what the change resets: a new slug starts its own count, and the merchant's clear
 * (`clearsPayLinkDeclines`) empties both.
 */
export function buildReplaceInvoice(
  previous: StoredInvoice,
  next: Invoice,
  now: Date,
  options: { readonly clearsPayLinkDeclines?: boolean } = {},
) {
  const declines = previous.payLinkDeclines ?? noDeclines;
  const kept = declinesAfterChange(declines, {
    slugChanged: next.invoiceUrlSlug !== previous.invoice.invoiceUrlSlug,
    cleared: options.clearsPayLinkDeclines === true,
  });
  return {
    Put: {
      TableName: tableName(),
      Item: invoiceItem(next, previous.merchantName, kept),
      ...allOf(invoiceAsRead(previous.invoice), lockFree(now), ...declinesAsRead(declines)),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/**
 * Advances the merchant's invoice number from `current` to `current + 1`; fails (with the stored
 * value as its old image) when another create advanced it first.
 */
export function buildAdvanceInvoiceCounter(merchantId: string, current: number) {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.invoiceNumberCounter(merchantId),
      UpdateExpression: 'SET #value = :next, entityType = :entityType',
      ConditionExpression: current === 0 ? 'attribute_not_exists(PK)' : '#value = :current',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: {
        ':next': current + 1,
        ':entityType': EntityType.invoiceNumberCounter,
        ...(current === 0 ? {} : { ':current': current }),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

export function counterValue(item: Record<string, unknown> | undefined): number {
  return typeof item?.value === 'number' ? item.value : 0;
}

export function buildPutInvoiceSlug(slugHash: string, merchantId: string, invoiceId: string) {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.invoiceSlug(slugHash), entityType: EntityType.invoiceSlug, merchantId, invoiceId },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

export function buildDeleteInvoiceSlug(slugHash: string) {
  return { Delete: { TableName: tableName(), Key: keys.invoiceSlug(slugHash) } };
}

/** An out-of-band payment, kept beside the invoice as the record of what was applied. */
export function buildPutInvoicePayment(payment: {
  merchantId: string;
  invoiceId: string;
  paymentRecordId: string;
  amount: number;
  currency: string;
  reference?: string | undefined;
  recordedAt: string;
}) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.invoicePayment(payment.merchantId, payment.invoiceId, payment.paymentRecordId),
        entityType: 'InvoicePayment',
        ...payment,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

export async function getInvoice(merchantId: string, invoiceId: string): Promise<Invoice | undefined> {
  return (await getStoredInvoice(merchantId, invoiceId))?.invoice;
}

export async function getStoredInvoice(
  merchantId: string,
  invoiceId: string,
): Promise<StoredInvoice | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.invoice(merchantId, invoiceId),
      ConsistentRead: true,
    }),
  );
  return Item === undefined
    ? undefined
    : {
        invoice: toInvoice(Item),
        merchantName: storedMerchantName(Item),
        payLinkDeclines: declinesOf(Item),
      };
}

/** The issuer's name kept on an invoice item, if it was created with one. */
export function storedMerchantName(item: Record<string, unknown>): string | undefined {
  return typeof item.merchantName === 'string' ? item.merchantName : undefined;
}

export function toInvoice(item: Record<string, unknown>): Invoice {
  const {
    PK: _pk,
    SK: _sk,
    GSI1PK: _gsi1pk,
    GSI1SK: _gsi1sk,
    GSI2PK: _gsi2pk,
    GSI2SK: _gsi2sk,
    GSI3PK: _gsi3pk,
    entityType: _entityType,
    merchantName: _merchantName,
    ...invoice
  } = withoutDeclines(withoutLock(item));
  return invoice as unknown as Invoice;
}

export interface InvoiceFilters {
  readonly status?: InvoiceStatus | undefined;
  readonly customerId?: string | undefined;
}

/**
 * Newest first. A customer filter reads GSI2 (narrowest), a status filter alone reads GSI1, no
 * filter reads the merchant's partition; both filters read GSI2 and filter on status. GSI1 and the
 * merchant's partition have one partition per shard of the merchant: one Query each, run together
 * and merged (one Query for a merchant with one shard). GSI2 is per customer and never sharded.
 */
export function queryInvoices(
  merchantId: string,
  shards: ShardHistory,
  filters: InvoiceFilters,
  limit: number,
  startKey: Record<string, unknown> | undefined,
) {
  const table = tableName();
  if (filters.customerId !== undefined) {
    return queryPage(
      {
        TableName: table,
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :partition',
        ExpressionAttributeValues: {
          ':partition': keys.invoicesOfCustomerPartition(merchantId, filters.customerId),
          ...(filters.status === undefined ? {} : { ':status': filters.status }),
        },
        ...(filters.status === undefined
          ? {}
          : { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } }),
        ScanIndexForward: false,
      },
      { limit, startKey, keyAttributes: ['PK', 'SK', 'GSI2PK', 'GSI2SK'] },
    );
  }
  const { status } = filters;
  if (status !== undefined) {
    // A cursor names the last invoice of a page (its GSI1SK is its id): each shard goes on below it.
    const before = startKey === undefined ? undefined : String(startKey.GSI1SK);
    const inShard = (shard: number) => ({
      TableName: table,
      IndexName: 'GSI1',
      KeyConditionExpression: `GSI1PK = :partition${before === undefined ? '' : ' AND GSI1SK < :before'}`,
      ExpressionAttributeValues: {
        ':partition': keys.invoicesWithStatusPartition(merchantId, status, shard),
        ...(before === undefined ? {} : { ':before': before }),
      },
      ScanIndexForward: false,
    });
    return queryPartitionsPage(shardsOfPage(shards, { id: before }).map(inShard), {
      limit,
      sortAttribute: 'GSI1SK',
      keyAttributes: ['PK', 'SK', 'GSI1PK', 'GSI1SK'],
    });
  }
  const after = startKey === undefined ? undefined : String(startKey.SK);
  const inShard = (shard: number) => {
    const partition = keys.merchantShardPartition(merchantId, shard);
    return {
      TableName: table,
      KeyConditionExpression: 'PK = :partition AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':partition': partition, ':prefix': SortKeyPrefix.invoice },
      ScanIndexForward: false,
      ...(after === undefined ? {} : { ExclusiveStartKey: { PK: partition, SK: after } }),
    };
  };
  const shardsRead = shardsOfPage(shards, { id: after?.slice(SortKeyPrefix.invoice.length) });
  return queryPartitionsPage(shardsRead.map(inShard), {
    limit,
    sortAttribute: 'SK',
    keyAttributes: ['PK', 'SK'],
  });
}
