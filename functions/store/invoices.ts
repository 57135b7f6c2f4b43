import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { canonicalJson } from '../domain/canonical-json';
import {
  type CatalogView,
  type DomainEvent,
  type Invoice,
  type InvoiceStatus,
  isVisibleToPayer,
  type PayerInvoice,
  payerInvoiceFields,
  type RequestedLine,
} from '../domain/invoice';
import { invoiceSlugHash } from '../domain/invoice-slug';
import { merchantShardOfId } from '../domain/merchant-shards';
import type { Currency } from '../domain/money';
import {
  type DeclineHistory,
  declineLimit,
  declinesAfterChange,
  noDeclines,
  PayLinkDeclineLimit,
  PayLinkDeclineLimitReached,
  type PayLinkDeclines,
  withDecline,
} from '../domain/pay-link-declines';
import type { ShardHistory } from '../domain/shard-history';
import { catalogKeys } from './catalog';
import { documentClient, tableName } from './client';
import { customerKeys } from './customers';
import { buildPutEvent } from './events';
import { commitWithIdempotency, type IdempotencyContext, type StoredResponse } from './idempotency';
import { merchantKeys } from './merchants';
import {
  allOf,
  type Condition,
  type ItemKey,
  isLockedByLiveCall,
  isLockHeldBy,
  lockFree,
  lockHeldBy,
  lockRelease,
  type ProcessorCallAdmission,
  ProcessorCallBusy,
  withoutLock,
} from './payments';
import {
  batchGet,
  itemsOfEntries,
  type QueryPage,
  queryPage,
  queryPartitionsPage,
  shardsOfPage,
} from './reads';
import {
  EntityType,
  merchantPartition,
  merchantShardPartition,
  partitionOfId,
  SortKeyPrefix,
  sortKeyPrefixRange,
} from './table';
import {
  type FailedCondition,
  type JitterRetry,
  retryWithJitter,
  type TransactItems,
  TransactionConditionFailed,
} from './transaction';

/** A status list has a partition per shard, like the invoices it lists. */
const invoicesWithStatusPartition = (merchantId: string, status: string, shard: number) =>
  `${merchantShardPartition(merchantId, shard)}#INVOICES#${status}`;
const invoicesOfCustomerPartition = (merchantId: string, customerId: string) =>
  `${merchantPartition(merchantId)}#CUSTOMER#${customerId}#INVOICES`;
const invoicesOfCustomerWithStatusPartition = (merchantId: string, customerId: string, status: string) =>
  `${invoicesOfCustomerPartition(merchantId, customerId)}#${status}`;

export const invoiceKeys = {
  invoice: (merchantId: string, invoiceId: string) => ({
    PK: partitionOfId(merchantId, invoiceId),
    SK: `${SortKeyPrefix.invoice}${invoiceId}`,
  }),
  /** An out-of-band payment's record, beside its invoice in the invoice's shard. */
  invoicePayment: (merchantId: string, invoiceId: string, paymentRecordId: string) => ({
    PK: partitionOfId(merchantId, invoiceId),
    SK: `${SortKeyPrefix.invoicePayment}${invoiceId}#${paymentRecordId}`,
  }),
  /**
   * GSI1: a merchant's invoices of one status; GSI6 (keys only): a customer's invoices of one
   * status; GSI7 (keys only): a customer's invoices. All newest first. An invoice of an earlier
   * release may still carry its GSI2 entry (a customer's invoices, whole) until `items rekey`.
   */
  invoiceIndexes: (merchantId: string, customerId: string, status: string, invoiceId: string) => ({
    GSI1PK: invoicesWithStatusPartition(merchantId, status, merchantShardOfId(invoiceId)),
    GSI1SK: invoiceId,
    GSI6PK: invoicesOfCustomerWithStatusPartition(merchantId, customerId, status),
    GSI7PK: invoicesOfCustomerPartition(merchantId, customerId),
  }),
  invoicesWithStatusPartition,
  invoicesOfCustomerPartition,
  invoicesOfCustomerWithStatusPartition,
  /** The per-merchant invoice number sequence, advanced inside each create transaction. */
  invoiceNumberCounter: (merchantId: string) => ({
    PK: merchantPartition(merchantId),
    SK: 'COUNTER#INVOICE_NUMBER',
  }),
  /** Pay-link lookup by the SHA-256 of the slug, never by the slug itself: the table holds no live slug as a key. */
  invoiceSlug: (slugHash: string) => ({ PK: `INVOICE_SLUG#${slugHash}`, SK: 'INVOICE_SLUG' }),
  /** GSI3: the invoice itself by the SHA-256 of its current slug, found by a pay link in one Query. */
  invoiceBySlug: (slugHash: string) => ({ GSI3PK: `INVOICE_SLUG#${slugHash}` }),
} as const;

/**
 * An invoice as stored: the resource, and its issuer's name as it was when the invoice was created,
 * which the pay page shows; none when the merchant had no item then.
 */
export interface StoredInvoice {
  readonly invoice: Invoice;
  readonly merchantName: string | undefined;
  /** What paid it in full, for its receipt (docs/emails.md); absent before then. */
  readonly paidWith?: PaidWith | undefined;
  /** The pay link's latest declines (see `declinesOf` below); absent: none. */
  readonly payLinkDeclines?: PayLinkDeclines;
}

/**
 * The payment that paid an invoice in full, as its receipt names it: the method's kind (`card`,
 * `bank_account`, `out_of_band`) and its reference (the payment's id of a pay-link payment, the
 * merchant's own of one recorded out of band). Kept on the invoice item, outside every index's key,
 * so the receipt costs no read beyond the invoice.
 */
export interface PaidWith {
  readonly methodKind: string;
  readonly reference?: string | undefined;
}

function paidWithOf(item: Record<string, unknown>): PaidWith | undefined {
  const paidWith = item.paidWith as Record<string, unknown> | undefined;
  if (typeof paidWith?.methodKind !== 'string') return undefined;
  return {
    methodKind: paidWith.methodKind,
    ...(typeof paidWith.reference === 'string' ? { reference: paidWith.reference } : {}),
  };
}

function invoiceItem(
  invoice: Invoice,
  merchantName: string | undefined,
  payLinkDeclines: PayLinkDeclines = noDeclines,
  paidWith?: PaidWith,
) {
  return {
    ...invoiceKeys.invoice(invoice.merchantId, invoice.invoiceId),
    ...invoiceKeys.invoiceIndexes(invoice.merchantId, invoice.customerId, invoice.status, invoice.invoiceId),
    // Sparse: a draft has no pay link yet, so it stays out of the pay-link index.
    ...(isVisibleToPayer(invoice) ? invoiceKeys.invoiceBySlug(invoiceSlugHash(invoice.invoiceUrlSlug)) : {}),
    entityType: EntityType.invoice,
    ...invoice,
    ...(merchantName === undefined ? {} : { merchantName }),
    ...declinesAttributes(payLinkDeclines),
    ...(paidWith === undefined ? {} : { paidWith }),
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
  options: { readonly clearsPayLinkDeclines?: boolean; readonly paidWith?: PaidWith | undefined } = {},
) {
  const declines = previous.payLinkDeclines ?? noDeclines;
  const kept = declinesAfterChange(declines, {
    slugChanged: next.invoiceUrlSlug !== previous.invoice.invoiceUrlSlug,
    cleared: options.clearsPayLinkDeclines === true,
  });
  return {
    Put: {
      TableName: tableName(),
      Item: invoiceItem(next, previous.merchantName, kept, options.paidWith ?? previous.paidWith),
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
      Key: invoiceKeys.invoiceNumberCounter(merchantId),
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
      Item: {
        ...invoiceKeys.invoiceSlug(slugHash),
        entityType: EntityType.invoiceSlug,
        merchantId,
        invoiceId,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

export function buildDeleteInvoiceSlug(slugHash: string) {
  return { Delete: { TableName: tableName(), Key: invoiceKeys.invoiceSlug(slugHash) } };
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
        ...invoiceKeys.invoicePayment(payment.merchantId, payment.invoiceId, payment.paymentRecordId),
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
      Key: invoiceKeys.invoice(merchantId, invoiceId),
      ConsistentRead: true,
    }),
  );
  return Item === undefined
    ? undefined
    : {
        invoice: toInvoice(Item),
        merchantName: storedMerchantName(Item),
        payLinkDeclines: declinesOf(Item),
        paidWith: paidWithOf(Item),
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
    GSI6PK: _gsi6pk,
    GSI7PK: _gsi7pk,
    entityType: _entityType,
    merchantName: _merchantName,
    paidWith: _paidWith,
    ...invoice
  } = withoutDeclines(withoutLock(item));
  return invoice as unknown as Invoice;
}

export interface InvoiceFilters {
  readonly status?: InvoiceStatus | undefined;
  readonly customerId?: string | undefined;
}

/**
 * Newest first. A customer filter reads the customer's keys (GSI7) and then their invoices by key,
 * both filters the customer's keys of that status (GSI6) likewise; a status filter alone reads GSI1,
 * no filter the merchant's partition. GSI1 and the merchant's partition have one partition per shard
 * of the merchant: one Query each, run together and merged (one Query for a merchant with one
 * shard). GSI6 and GSI7 are per customer and never sharded.
 */
export async function queryInvoices(
  merchantId: string,
  shards: ShardHistory,
  filters: InvoiceFilters,
  limit: number,
  startKey: Record<string, unknown> | undefined,
): Promise<QueryPage> {
  const table = tableName();
  const { status } = filters;
  const { customerId } = filters;
  if (customerId !== undefined) {
    const [indexName, partition] =
      status === undefined
        ? (['GSI7', invoiceKeys.invoicesOfCustomerPartition(merchantId, customerId)] as const)
        : ([
            'GSI6',
            invoiceKeys.invoicesOfCustomerWithStatusPartition(merchantId, customerId, status),
          ] as const);
    // The index sorts by the table's own key, so the table's key and the partition are a start key
    // whatever index an older cursor named (GSI2, before GSI7).
    const from =
      startKey === undefined
        ? undefined
        : { PK: startKey.PK, SK: startKey.SK, [`${indexName}PK`]: partition };
    const entries = await queryPage(
      {
        TableName: table,
        IndexName: indexName,
        KeyConditionExpression: `${indexName}PK = :partition`,
        ExpressionAttributeValues: { ':partition': partition },
        ScanIndexForward: false,
      },
      { limit, startKey: from, keyAttributes: ['PK', 'SK', `${indexName}PK`] },
    );
    // An invoice whose status moved since its entry was read is left out of a status's page.
    return itemsOfEntries(entries, (item) => status === undefined || item.status === status);
  }
  if (status !== undefined) {
    // A cursor names the last invoice of a page (its GSI1SK is its id): each shard goes on below it.
    const before = startKey === undefined ? undefined : String(startKey.GSI1SK);
    const inShard = (shard: number) => ({
      TableName: table,
      IndexName: 'GSI1',
      KeyConditionExpression: `GSI1PK = :partition${before === undefined ? '' : ' AND GSI1SK < :before'}`,
      ExpressionAttributeValues: {
        ':partition': invoiceKeys.invoicesWithStatusPartition(merchantId, status, shard),
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
  const { keyCondition, values } = sortKeyPrefixRange(SortKeyPrefix.invoice);
  const inShard = (shard: number) => {
    const partition = merchantShardPartition(merchantId, shard);
    return {
      TableName: table,
      KeyConditionExpression: keyCondition,
      ExpressionAttributeValues: { ':partition': partition, ...values },
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

/**
 * Creates that lose the race for the next number try again; each loss means another create won.
 * Full jitter growing with each loss: many creates racing for one merchant's counter spread out
 * instead of all retrying at once, which keeps the wasted transactions near n log n, not n².
 */
const numberRace: JitterRetry = { attempts: 200, baseMs: 4, capMs: 250 };

/**
 * Writes a new invoice (with its issuer's name, which the pay page shows), its slug lookup, the
 * advanced counter and the idempotency record (which keeps the answer without its slug) in one
 * transaction. When another create took the number first, the counter's old image tells the next
 * number at once and the transaction is rebuilt with it: numbers stay gapless and unique, and a
 * failed create leaves the counter untouched (docs/decisions/invoice-create.md).
 */
export async function commitNewInvoice(
  context: IdempotencyContext,
  counter: number,
  merchantName: string | undefined,
  build: (sequence: number) => Invoice,
): Promise<StoredResponse> {
  let current = counter;
  return retryWithJitter(
    numberRace,
    async () => {
      const invoice = build(current + 1);
      try {
        return await commitWithIdempotency(
          context,
          { status: 201, body: invoice },
          [
            buildAdvanceInvoiceCounter(invoice.merchantId, current),
            buildPutNewInvoice(invoice, merchantName),
            buildPutInvoiceSlug(
              invoiceSlugHash(invoice.invoiceUrlSlug),
              invoice.merchantId,
              invoice.invoiceId,
            ),
          ],
          withoutSlug(invoice),
        );
      } catch (error) {
        // The winner's counter, read from the failed condition, is the next number to try.
        const counterFailure = failureOfFirstItem(error);
        if (counterFailure !== undefined) current = counterValue(counterFailure.existing);
        throw error;
      }
    },
    (error) => failureOfFirstItem(error) !== undefined,
  );
}

export interface InvoiceChange {
  readonly next: Invoice;
  readonly events?: readonly DomainEvent[];
  /** Further items of the same transaction (slug rotation, payment records). */
  readonly items?: TransactItems;
  /** Empties the pay link's decline counts (the merchant's clear); a new slug empties its own anyway. */
  readonly clearsPayLinkDeclines?: boolean;
  /** The payment that pays it in full, for the receipt. */
  readonly paidWith?: PaidWith | undefined;
}

/** A transition that meets a newer revision is computed again from it, a few times at most. */
const revisionRace: JitterRetry = { attempts: 10, baseMs: 4, capMs: 250 };

/**
 * Reads the invoice, computes the change, and commits the new revision (conditional on the one read),
 * its events and the idempotency record in one transaction. `change` may throw a RuleViolation.
 */
export async function commitInvoiceChange(
  context: IdempotencyContext,
  merchantId: string,
  invoiceId: string,
  change: (invoice: Invoice) => InvoiceChange,
): Promise<StoredResponse | undefined> {
  return retryWithJitter(
    revisionRace,
    async () => {
      const stored = await getStoredInvoice(merchantId, invoiceId);
      if (stored === undefined) return undefined;
      const { next, events = [], items = [], clearsPayLinkDeclines, paidWith } = change(stored.invoice);
      try {
        return await commitWithIdempotency(
          context,
          { status: 200, body: next },
          [
            buildReplaceInvoice(stored, next, context.now, {
              clearsPayLinkDeclines: clearsPayLinkDeclines === true,
              paidWith,
            }),
            ...events.map((event) => buildPutEvent(event, context.requestId)),
            ...items,
          ],
          withoutSlug(next),
        );
      } catch (error) {
        if (isLockedByLiveCall(failureOfFirstItem(error)?.existing, context.now)) {
          throw new ProcessorCallBusy(
            'A payment of this invoice is being processed; try again in a few seconds.',
          );
        }
        throw error;
      }
    },
    (error) => failureOfFirstItem(error) !== undefined,
  );
}

/** The failed condition on the transaction's first item (the counter, or the invoice revision). */
function failureOfFirstItem(error: unknown): FailedCondition | undefined {
  return error instanceof TransactionConditionFailed ? error.failureAt(0) : undefined;
}

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
  add(customerKeys.customer(merchantId, customerId));
  add(merchantKeys.merchant(merchantId));
  add(invoiceKeys.invoiceNumberCounter(merchantId));
  for (const line of charges) {
    add(catalogKeys.product(merchantId, line.productId));
    add(catalogKeys.price(merchantId, line.productId, line.priceId));
  }
  const items = await batchGet([...wanted.values()]);
  const bySortKey = new Map(items.map((item) => [String(item.SK), item]));
  const products = new Map<string, { name: string; active: boolean }>();
  const prices = new Map<string, { productId: string; unitAmount: number; currency: Currency }>();
  for (const line of charges) {
    const product = bySortKey.get(catalogKeys.product(merchantId, line.productId).SK);
    if (product !== undefined) {
      products.set(line.productId, { name: String(product.name), active: product.status === 'active' });
    }
    const price = bySortKey.get(catalogKeys.price(merchantId, line.productId, line.priceId).SK);
    if (price !== undefined) {
      prices.set(line.priceId, {
        productId: String(price.productId),
        unitAmount: Number(price.unitAmount),
        currency: price.currency as Currency,
      });
    }
  }
  return {
    customerExists: bySortKey.has(customerKeys.customer(merchantId, customerId).SK),
    invoiceCounter: counterValue(bySortKey.get(invoiceKeys.invoiceNumberCounter(merchantId).SK)),
    merchantName: merchantNameOf(bySortKey.get(merchantKeys.merchant(merchantId).SK)),
    catalog: { product: (id) => products.get(id), price: (id) => prices.get(id) },
  };
}

function merchantNameOf(item: Record<string, unknown> | undefined): string | undefined {
  return typeof item?.name === 'string' ? item.name : undefined;
}

/*
 * Every invoice route answers with the invoice, pay-link slug included, and the idempotency record
 * keeps that answer for 24 h. The slug is a bearer credential (whoever holds it can pay), so the
 * record keeps no copy of it, sealed or not: a seal the table can open (a key derived from the
 * Idempotency-Key, which the invoice shows) protects nothing, and one it can't (KMS) would cost a
 * call on every invoice change to guard a copy of what the invoice item holds anyway. A replay reads
 * the slug back from the invoice instead (docs/decisions/idempotency.md).
 */

/**
 * The invoice as its idempotency record keeps it: `invoiceUrlSlug` is `null`, in its place, so a
 * replay that fills it in answers the same bytes in the same order.
 */
export function withoutSlug(invoice: Invoice): Omit<Invoice, 'invoiceUrlSlug'> & { invoiceUrlSlug: null } {
  return { ...invoice, invoiceUrlSlug: null };
}

/**
 * A stored invoice answer with the invoice's current slug filled in: after a rotation that is the
 * new slug, the only one that still pays. One consistent GetItem, on replays only.
 */
export async function reviveInvoiceReplay(storedBody: unknown): Promise<unknown> {
  const body = storedBody as Partial<Record<keyof Invoice, unknown>>;
  if (typeof body !== 'object' || body === null || !('invoiceUrlSlug' in body)) return storedBody;
  const invoice = await getInvoice(String(body.merchantId), String(body.invoiceId));
  // Invoices are never deleted: a stored answer without its invoice is a broken table.
  if (invoice === undefined) throw new Error('The invoice of a stored response does not exist');
  return { ...body, invoiceUrlSlug: invoice.invoiceUrlSlug };
}

export interface PayLinkTarget {
  readonly invoice: PayerInvoice;
  readonly merchantName: string;
  readonly slugHash: string;
}

/** `indexed` tries the pay-link index first; `consistent` reads only what was committed. */
export type PayLinkRead = 'indexed' | 'consistent';

/**
 * The invoice a pay-link slug leads to, with the name of its issuer, found by the slug's SHA-256,
 * never the slug. First one Query of the pay-link index (GSI3). The index follows the table a moment
 * late, so a miss (a slug issued or rotated a moment ago) is read again through the slug's lookup item, which every slug change writes in its own
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
      ExpressionAttributeValues: { ':payLink': invoiceKeys.invoiceBySlug(slugHash).GSI3PK },
      Limit: 1,
    }),
  );
  const item = Items?.[0];
  if (item === undefined) return undefined;
  return { invoice: toPayerInvoice(item), merchantName: storedMerchantName(item) ?? '', slugHash };
}

async function findThroughLookup(slug: string, slugHash: string): Promise<PayLinkTarget | undefined> {
  const { Item: link } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: invoiceKeys.invoiceSlug(slugHash), ConsistentRead: true }),
  );
  if (link === undefined) return undefined;
  const { Item: invoiceItem } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: invoiceKeys.invoice(String(link.merchantId), String(link.invoiceId)),
      ConsistentRead: true,
    }),
  );
  if (invoiceItem === undefined || invoiceItem.invoiceUrlSlug !== slug) return undefined;
  return {
    invoice: toPayerInvoice(invoiceItem),
    merchantName: storedMerchantName(invoiceItem) ?? '',
    slugHash,
  };
}

function toPayerInvoice(item: Record<string, unknown>): PayerInvoice {
  return Object.fromEntries(
    payerInvoiceFields.flatMap((field) => (item[field] === undefined ? [] : [[field, item[field]]])),
  ) as unknown as PayerInvoice;
}

/** Holds while the invoice still has the slug that was followed: its GSI3 key is that slug's hash. */
function slugStill(target: PayLinkTarget): Condition {
  return {
    expression: 'GSI3PK = :payLink',
    values: { ':payLink': invoiceKeys.invoiceBySlug(target.slugHash).GSI3PK },
  };
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
 * share of the invoice; the status lists' keys follow its new status.
 */
export function buildPayLinkPayment(
  target: PayLinkTarget,
  next: PayerInvoice & Pick<Invoice, 'updatedAt'>,
  callId: string,
  paidWith?: PaidWith,
) {
  const read: Record<string, unknown> = { ...target.invoice };
  const changed = Object.entries(next).filter(
    ([name, value]) => canonicalJson(value) !== canonicalJson(read[name]),
  );
  const indexKeys = invoiceKeys.invoiceIndexes(next.merchantId, next.customerId, next.status, next.invoiceId);
  const sets = [
    ...changed,
    ...Object.entries(indexKeys),
    ...(paidWith === undefined ? [] : [['paidWith', paidWith]]),
  ];
  const assignments = sets.map((_, position) => `#set${position} = :set${position}`);
  const condition = allOf(lockHeldBy(callId), slugStill(target));
  return {
    Update: {
      TableName: tableName(),
      Key: invoiceKeys.invoice(next.merchantId, next.invoiceId),
      UpdateExpression: `SET ${assignments.join(', ')} REMOVE ${lockRelease.attributes.join(', ')}`,
      ConditionExpression: condition.ConditionExpression,
      ExpressionAttributeNames: {
        ...condition.ExpressionAttributeNames,
        ...lockRelease.names,
        ...Object.fromEntries(sets.map(([name], position) => [`#set${position}`, name])),
      },
      ExpressionAttributeValues: {
        ...condition.ExpressionAttributeValues,
        ...Object.fromEntries(sets.map(([, value], position) => [`:set${position}`, value])),
      },
    },
  };
}

/*
 * The invoice item keeps its latest pay-link declines beside the processor lock, in two lists of
 * epoch ms, newest first: `payLinkDeclinedAt` for its current slug (at most `perSlug`) and
 * `invoiceDeclinedAt` for all its slugs (at most `perInvoice`). A pay-link payment's reservation,
 * which locks the invoice, is conditioned on both limits, and a decline is added to both by the same
 * write that releases the lock: the lock orders every attempt, so the counts are exact and cost no
 * read. The lists are bookkeeping, outside the pay-link index's projection and never part of a
 * resource.
 */

interface StoredList {
  readonly name: string;
  readonly placeholder: string;
  readonly limit: number;
}

const lists: Record<keyof PayLinkDeclines, StoredList> = {
  slug: { name: 'payLinkDeclinedAt', placeholder: '#payLinkDeclinedAt', limit: PayLinkDeclineLimit.perSlug },
  invoice: {
    name: 'invoiceDeclinedAt',
    placeholder: '#invoiceDeclinedAt',
    limit: PayLinkDeclineLimit.perInvoice,
  },
};
const scopes = Object.keys(lists) as (keyof PayLinkDeclines)[];
const listNames = Object.fromEntries(scopes.map((scope) => [lists[scope].placeholder, lists[scope].name]));

/** The item's declines; none on an invoice that never had a pay-link decline. */
export function declinesOf(item: Record<string, unknown> | undefined): PayLinkDeclines {
  const read = (list: StoredList) => {
    const stored = item?.[list.name];
    return Array.isArray(stored) ? stored.map(Number) : [];
  };
  return { slug: read(lists.slug), invoice: read(lists.invoice) };
}

/** The limit-th newest decline of a list: while it is missing the list has room. */
const oldestCounted = (list: StoredList) => `${list.placeholder}[${list.limit - 1}]`;

/**
 * What a pay-link payment's reservation requires of the invoice: fewer than `perSlug` declines of
 * this slug and fewer than `perInvoice` of the invoice within the window before `now` (each list's
 * limit-th newest is missing or old enough), and the 429 when it fails.
 */
export function payLinkDeclineAdmission(now: Date): ProcessorCallAdmission {
  return {
    conditions: scopes.map((scope) => {
      const counted = oldestCounted(lists[scope]);
      return {
        expression: `attribute_not_exists(${counted}) OR ${counted} <= :declineWindowStart`,
        names: { [lists[scope].placeholder]: lists[scope].name },
        values: { ':declineWindowStart': now.getTime() - PayLinkDeclineLimit.windowMs },
      };
    }),
    refusal: (item) => {
      const limit = declineLimit(declinesOf(item), now);
      return limit === undefined ? undefined : new PayLinkDeclineLimitReached(limit.until, limit.scope);
    },
  };
}

/**
 * The decline's write of the invoice by the call holding its lock: releases the lock and adds the
 * decline to both lists. While both have room it is an append that needs no read; a full list has to
 * drop its oldest, so then both are rewritten, conditioned on being as the failed append found them.
 */
export function buildRecordDecline(key: ItemKey, callId: string, at: Date, full?: PayLinkDeclines) {
  const fits: Condition[] = scopes.map((scope) =>
    full === undefined
      ? { expression: `attribute_not_exists(${oldestCounted(lists[scope])})` }
      : listAsRead(lists[scope], full[scope], 'previous'),
  );
  const condition = allOf(lockHeldBy(callId), ...fits);
  const next = full === undefined ? undefined : withDecline(full, at);
  const assignments = scopes.map((scope) => {
    const { placeholder } = lists[scope];
    return next === undefined
      ? `${placeholder} = list_append(:decline, if_not_exists(${placeholder}, :noDeclines))`
      : `${placeholder} = :${scope}Declines`;
  });
  return {
    Update: {
      TableName: tableName(),
      Key: { ...key },
      UpdateExpression: `SET ${assignments.join(', ')} REMOVE ${lockRelease.attributes.join(', ')}`,
      ConditionExpression: condition.ConditionExpression,
      ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, ...lockRelease.names, ...listNames },
      ExpressionAttributeValues: {
        ...condition.ExpressionAttributeValues,
        ...(next === undefined
          ? { ':decline': [at.getTime()], ':noDeclines': [] }
          : Object.fromEntries(scopes.map((scope) => [`:${scope}Declines`, [...next[scope]]]))),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/**
 * The rewrite to send when the append found a list full: `undefined` when the lock was lost
 * instead (another call took over a lease that ran out), which must fail as before.
 */
export function buildRecordDeclineOverFull(
  key: ItemKey,
  callId: string,
  at: Date,
  existing: Record<string, unknown> | undefined,
) {
  if (existing === undefined || !isLockHeldBy(existing, callId)) return undefined;
  return buildRecordDecline(key, callId, at, declinesOf(existing));
}

/** The conditions a replacement of the whole invoice carries: both lists are as it read them. */
export function declinesAsRead(declines: PayLinkDeclines): Condition[] {
  return scopes.map((scope) => listAsRead(lists[scope], declines[scope], 'asRead'));
}

/** The attributes a replacement of the whole invoice writes, so it never drops a list it keeps. */
export function declinesAttributes(declines: PayLinkDeclines = noDeclines): Record<string, number[]> {
  return Object.fromEntries(
    scopes.flatMap((scope) =>
      declines[scope].length === 0 ? [] : [[lists[scope].name, [...declines[scope]]]],
    ),
  );
}

/** The lists are bookkeeping: item readers drop them before an item becomes a resource. */
export function withoutDeclines<T extends Record<string, unknown>>(item: T): T {
  const { [lists.slug.name]: _slug, [lists.invoice.name]: _invoice, ...rest } = item;
  return rest as T;
}

function listAsRead(list: StoredList, history: DeclineHistory, tag: string): Condition {
  const value = `:${tag}${list.name}`;
  return history.length === 0
    ? { expression: `attribute_not_exists(${list.placeholder})`, names: { [list.placeholder]: list.name } }
    : {
        expression: `${list.placeholder} = ${value}`,
        names: { [list.placeholder]: list.name },
        values: { [value]: [...history] },
      };
}
