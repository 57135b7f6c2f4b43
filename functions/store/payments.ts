import { GetCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { typeIdBound } from '../domain/id-time-bounds';
import { merchantShardOfId } from '../domain/merchant-shards';
import { type Payment, type PaymentStatus, type Payout, type Refund, RefundStatus } from '../domain/payment';
import type { ShardHistory } from '../domain/shard-history';
import { AnswerableError, type ErrorAnswer } from '../errors/answerable-error';
import {
  measuredProcessorCall,
  type ProcessorMetrics,
  processorMetrics,
} from '../payments/processor-metrics';
import { catalogKeys } from './catalog';
import { documentClient, tableName } from './client';
import { customerKeys } from './customers';
import {
  buildIdempotencyRecordPut,
  type IdempotencyContext,
  IdempotencyInProgress,
  idempotencyKeys,
  idempotencyRecordItem,
  inProgressState,
  noLiveRecord,
  replayOf,
  replayStoredOutcome,
  type StoredResponse,
} from './idempotency';
import {
  batchGet,
  itemsOfEntries,
  type QueryPage,
  queryMerchantItems,
  queryPartitionsPage,
  shardsOfPage,
} from './reads';
import { EntityType, merchantPartition, merchantShardPartition, partitionOfId, SortKeyPrefix } from './table';
import { sendTransaction, type TransactItems, TransactionConditionFailed } from './transaction';

const paymentsWithStatusPartition = (merchantId: string, status: string, shard: number) =>
  `${merchantShardPartition(merchantId, shard)}#PAYMENTS#${status}`;
const paymentsOfCustomerPartition = (merchantId: string, customerId: string) =>
  `${merchantPartition(merchantId)}#CUSTOMER#${customerId}#PAYMENTS`;
const paymentsOfCustomerWithStatusPartition = (merchantId: string, customerId: string, status: string) =>
  `${paymentsOfCustomerPartition(merchantId, customerId)}#${status}`;

export const paymentKeys = {
  payment: (merchantId: string, paymentId: string) => ({
    PK: partitionOfId(merchantId, paymentId),
    SK: `${SortKeyPrefix.payment}${paymentId}`,
  }),
  /**
   * Refunds sort under their payment, in its shard, so one Query lists a payment's refunds. Their
   * own ids stay UUIDv7: the payment's id names the shard.
   */
  refund: (merchantId: string, paymentId: string, refundId: string) => ({
    PK: partitionOfId(merchantId, paymentId),
    SK: `${SortKeyPrefix.refund}${paymentId}#${refundId}`,
  }),
  refundsOfPaymentPrefix: (paymentId: string) => `${SortKeyPrefix.refund}${paymentId}#`,
  /**
   * The lists' entries of a payment, each sorted by its time-ordered id: GSI6 (keys only) the
   * merchant's payments of its status, in the payment's shard; GSI2 the customer's payments and GSI4
   * those of the payment's status, which project the payment whole (under 1 KB, one unit an entry).
   */
  paymentIndexes: (payment: Pick<Payment, 'merchantId' | 'customerId' | 'status' | 'paymentId'>) => ({
    GSI6PK: paymentsWithStatusPartition(
      payment.merchantId,
      payment.status,
      merchantShardOfId(payment.paymentId),
    ),
    GSI2PK: paymentsOfCustomerPartition(payment.merchantId, payment.customerId),
    GSI2SK: payment.paymentId,
    GSI4PK: paymentsOfCustomerWithStatusPartition(payment.merchantId, payment.customerId, payment.status),
    GSI4SK: payment.paymentId,
  }),
  paymentsWithStatusPartition,
  paymentsOfCustomerPartition,
  paymentsOfCustomerWithStatusPartition,
  payout: (merchantId: string, payoutId: string) => ({
    PK: partitionOfId(merchantId, payoutId),
    SK: `${SortKeyPrefix.payout}${payoutId}`,
  }),
} as const;

/**
 * `sandboxReturnable` marks a payment from the sandbox's returning test account, the only kind the
 * sandbox return route returns (docs/sandbox-testing.md). It stays in the table, never in the API.
 */
export function buildPutPayment(payment: Payment, options: { sandboxReturnable?: boolean } = {}) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...paymentKeys.payment(payment.merchantId, payment.paymentId),
        ...paymentKeys.paymentIndexes(payment),
        entityType: EntityType.payment,
        ...payment,
        ...(options.sandboxReturnable === true ? { sandboxReturnable: true } : {}),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** Holds while the stored payment still has the status and refunded amount it was read with. */
export function paymentAsRead(payment: Payment): Condition {
  return {
    expression: '#status = :readStatus AND amountRefunded = :readRefunded',
    names: { '#status': 'status' },
    values: { ':readStatus': payment.status, ':readRefunded': payment.amountRefunded },
  };
}

/** The list keys that follow a payment's status (`paymentKeys.paymentIndexes`), as an update sets them. */
function statusIndexKeys(next: Payment) {
  const { GSI6PK, GSI4PK } = paymentKeys.paymentIndexes(next);
  return {
    assignments: 'GSI6PK = :gsi6pk, GSI4PK = :gsi4pk',
    values: { ':gsi6pk': GSI6PK, ':gsi4pk': GSI4PK },
  };
}

/** A refund applied by the call holding the payment's lock, which this write releases. */
export function buildApplyRefund(next: Payment, callId: string) {
  const held = lockHeldBy(callId);
  const statusKeys = statusIndexKeys(next);
  return {
    Update: {
      TableName: tableName(),
      Key: paymentKeys.payment(next.merchantId, next.paymentId),
      UpdateExpression: `SET amountRefunded = :amountRefunded, #status = :status, updatedAt = :updatedAt, #version = :version, ${statusKeys.assignments} REMOVE #lockId, #lockUntil`,
      ConditionExpression: held.expression,
      ExpressionAttributeNames: {
        ...held.names,
        '#lockUntil': 'processorCallUntil',
        '#status': 'status',
        '#version': 'version',
      },
      ExpressionAttributeValues: {
        ...held.values,
        ':amountRefunded': next.amountRefunded,
        ':status': next.status,
        ':updatedAt': next.updatedAt,
        ':version': next.version,
        ...statusKeys.values,
      },
    },
  };
}

/** A return: only while the payment is as read and no refund of it is at the processor. */
export function buildApplyReturn(previous: Payment, next: Payment, now: Date) {
  const condition = allOf(paymentAsRead(previous), lockFree(now));
  const statusKeys = statusIndexKeys(next);
  return {
    Update: {
      TableName: tableName(),
      Key: paymentKeys.payment(next.merchantId, next.paymentId),
      UpdateExpression: `SET #status = :status, updatedAt = :updatedAt, #version = :version, ${statusKeys.assignments}`,
      ...condition,
      ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, '#version': 'version' },
      ExpressionAttributeValues: {
        ...condition.ExpressionAttributeValues,
        ':status': next.status,
        ':updatedAt': next.updatedAt,
        ':version': next.version,
        ...statusKeys.values,
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/**
 * A refund asked of the processor, written by the call holding the payment's lock (which it
 * releases): the amount is held as pending, nothing else of the payment changes.
 */
export function buildHoldPendingRefund(next: Payment, callId: string) {
  const held = lockHeldBy(callId);
  return {
    Update: {
      TableName: tableName(),
      Key: paymentKeys.payment(next.merchantId, next.paymentId),
      UpdateExpression: `SET amountRefundPending = :pending, updatedAt = :updatedAt REMOVE ${lockRelease.attributes.join(', ')}`,
      ConditionExpression: held.expression,
      ExpressionAttributeNames: { ...held.names, ...lockRelease.names },
      ExpressionAttributeValues: {
        ...held.values,
        ':pending': next.amountRefundPending ?? 0,
        ':updatedAt': next.updatedAt,
      },
    },
  };
}

/**
 * A pending refund settled by the processor's event (confirmed or refused): the payment's amounts,
 * status and version, only while it is as read and no refund of it is at the processor.
 */
export function buildSettlePendingRefund(previous: Payment, next: Payment, now: Date) {
  const asRead = paymentAsRead(previous);
  const readPending = previous.amountRefundPending ?? 0;
  const pendingAsRead: Condition = {
    // A payment that never had a pending refund has no such attribute.
    expression:
      readPending === 0
        ? 'attribute_not_exists(amountRefundPending) OR amountRefundPending = :readPending'
        : 'amountRefundPending = :readPending',
    values: { ':readPending': readPending },
  };
  const condition = allOf(asRead, pendingAsRead, lockFree(now));
  const statusKeys = statusIndexKeys(next);
  return {
    Update: {
      TableName: tableName(),
      Key: paymentKeys.payment(next.merchantId, next.paymentId),
      UpdateExpression: `SET amountRefunded = :amountRefunded, amountRefundPending = :pending, #status = :status, updatedAt = :updatedAt, #version = :version, ${statusKeys.assignments}`,
      ...condition,
      ExpressionAttributeNames: {
        ...condition.ExpressionAttributeNames,
        '#status': 'status',
        '#version': 'version',
      },
      ExpressionAttributeValues: {
        ...condition.ExpressionAttributeValues,
        ':amountRefunded': next.amountRefunded,
        ':pending': next.amountRefundPending ?? 0,
        ':status': next.status,
        ':updatedAt': next.updatedAt,
        ':version': next.version,
        ...statusKeys.values,
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/** A pending refund's outcome, only while it is still pending: a second event of it finds it settled. */
export function buildSettleRefund(
  merchantId: string,
  paymentId: string,
  refundId: string,
  status: RefundStatus,
) {
  return {
    Update: {
      TableName: tableName(),
      Key: paymentKeys.refund(merchantId, paymentId, refundId),
      UpdateExpression: 'SET #status = :status',
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':pending': RefundStatus.pending },
    },
  };
}

export function buildPutPayout(payout: Payout) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...paymentKeys.payout(payout.merchantId, payout.payoutId),
        entityType: EntityType.payout,
        ...payout,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/**
 * The refund's item. It keeps no `paymentStatus`: a refund is read with its payment, whose status
 * it shows as it is then (`getRefund`, `toRefund`).
 */
export function buildPutRefund(merchantId: string, refund: Refund) {
  const { paymentStatus: _readWithThePayment, ...stored } = refund;
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...paymentKeys.refund(merchantId, refund.paymentId, refund.id),
        entityType: EntityType.refund,
        merchantId,
        ...stored,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

export async function getPayment(merchantId: string, paymentId: string): Promise<Payment | undefined> {
  return (await getPaymentRecord(merchantId, paymentId))?.payment;
}

/** The payment and what the table keeps beside it. */
export async function getPaymentRecord(
  merchantId: string,
  paymentId: string,
): Promise<{ payment: Payment; sandboxReturnable: boolean } | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: paymentKeys.payment(merchantId, paymentId),
      ConsistentRead: true,
    }),
  );
  return Item === undefined
    ? undefined
    : { payment: toPayment(Item), sandboxReturnable: Item.sandboxReturnable === true };
}

/**
 * A refund only under its own payment: any other pairing is simply absent (404). The refund and its
 * payment are read in one BatchGetItem, so the refund shows the payment's status as it is now.
 */
export async function getRefund(
  merchantId: string,
  paymentId: string,
  refundId: string,
): Promise<Refund | undefined> {
  const { refund, payment } = await getRefundAndPayment(merchantId, paymentId, refundId);
  return payment === undefined ? undefined : refund;
}

/** The refund (as `getRefund` shows it) and its payment whole, each absent where it is, in one read. */
export async function getRefundAndPayment(
  merchantId: string,
  paymentId: string,
  refundId: string,
): Promise<{ refund: Refund | undefined; payment: Payment | undefined }> {
  const refundKey = paymentKeys.refund(merchantId, paymentId, refundId);
  const paymentKey = paymentKeys.payment(merchantId, paymentId);
  const items = await batchGet([refundKey, paymentKey]);
  const refundItem = items.find((item) => item.SK === refundKey.SK);
  const paymentItem = items.find((item) => item.SK === paymentKey.SK);
  const payment = paymentItem === undefined ? undefined : toPayment(paymentItem);
  return {
    refund: refundItem === undefined || payment === undefined ? undefined : toRefund(refundItem, payment),
    payment,
  };
}

export interface PaymentFilters {
  readonly status?: PaymentStatus | undefined;
  readonly customerId?: string | undefined;
  /** Inclusive bounds on createdAt, to the millisecond. */
  readonly createdFrom?: string | undefined;
  readonly createdTo?: string | undefined;
}

/**
 * Newest first. Payment ids are time-ordered TypeIDs and sort every list of them, so a createdAt
 * range is a sort-key range (one key condition) wherever the page is read. No filter reads the
 * merchant's partitions; a status their keys of that status (GSI6), then the payments by key; a
 * customer the customer's payments (GSI2), and a status with it those of that status (GSI4). The
 * merchant's partitions and GSI6 have one partition per shard of the merchant: one Query each, run
 * together and merged (one for a merchant with one shard); a customer's lists are never sharded.
 */
export async function queryPayments(
  merchantId: string,
  shards: ShardHistory,
  filters: PaymentFilters,
  limit: number,
  startKey: Record<string, unknown> | undefined,
): Promise<QueryPage> {
  // Every payment id starts `pmt_`: a key condition's bound is never empty, as DynamoDB requires.
  const low =
    filters.createdFrom === undefined ? 'pmt_' : typeIdBound('pmt', new Date(filters.createdFrom), 'lowest');
  const high =
    filters.createdTo === undefined ? '~' : typeIdBound('pmt', new Date(filters.createdTo), 'highest');
  const cursorSortKey = startKey === undefined ? undefined : String(startKey.SK);
  const cursorId = cursorSortKey?.slice(SortKeyPrefix.payment.length);
  const list = paymentList(merchantId, filters);
  const inPartition = (partition: string): QueryCommandInput => ({
    TableName: tableName(),
    ...(list.indexName === undefined ? {} : { IndexName: list.indexName }),
    KeyConditionExpression: `${list.partitionKey} = :partition AND ${list.sortKey} BETWEEN :low AND :high`,
    ExpressionAttributeValues: {
      ':partition': partition,
      ':low': `${list.sortPrefix}${low}`,
      ':high': `${list.sortPrefix}${high}`,
    },
    ScanIndexForward: false,
    // A cursor names the last payment of a page, in whichever shard: each partition goes on below it.
    ...(cursorId === undefined
      ? {}
      : {
          ExclusiveStartKey: {
            PK: startKey?.PK,
            SK: cursorSortKey,
            [list.partitionKey]: partition,
            [list.sortKey]: `${list.sortPrefix}${cursorId}`,
          },
        }),
  });
  const shardsRead = list.sharded ? shardsOfPage(shards, { id: cursorId, time: filters.createdTo }) : [0];
  const page = await queryPartitionsPage(shardsRead.map(list.partition).map(inPartition), {
    limit,
    sortAttribute: list.sortKey,
    keyAttributes: ['PK', 'SK'],
  });
  if (!list.keysOnly) return page;
  return itemsOfEntries(page, (item) => item.status === filters.status);
}

/** Where a page of payments is read, by its filters (`queryPayments`). */
function paymentList(merchantId: string, filters: PaymentFilters) {
  const { status, customerId } = filters;
  if (customerId !== undefined) {
    const byStatus = status !== undefined;
    return {
      indexName: byStatus ? 'GSI4' : 'GSI2',
      partitionKey: byStatus ? 'GSI4PK' : 'GSI2PK',
      sortKey: byStatus ? 'GSI4SK' : 'GSI2SK',
      sortPrefix: '',
      sharded: false,
      keysOnly: false,
      partition: () =>
        byStatus
          ? paymentKeys.paymentsOfCustomerWithStatusPartition(merchantId, customerId, status)
          : paymentKeys.paymentsOfCustomerPartition(merchantId, customerId),
    };
  }
  if (status !== undefined) {
    return {
      indexName: 'GSI6',
      partitionKey: 'GSI6PK',
      sortKey: 'SK',
      sortPrefix: SortKeyPrefix.payment,
      sharded: true,
      keysOnly: true,
      partition: (shard: number) => paymentKeys.paymentsWithStatusPartition(merchantId, status, shard),
    };
  }
  return {
    indexName: undefined,
    partitionKey: 'PK',
    sortKey: 'SK',
    sortPrefix: SortKeyPrefix.payment,
    sharded: true,
    keysOnly: false,
    partition: (shard: number) => merchantShardPartition(merchantId, shard),
  };
}

export function queryRefunds(
  merchantId: string,
  paymentId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
) {
  const partition = partitionOfId(merchantId, paymentId);
  return queryMerchantItems(tableName(), partition, paymentKeys.refundsOfPaymentPrefix(paymentId), {
    limit,
    startKey,
  });
}

export function toPayment(item: Record<string, unknown>): Payment {
  const {
    PK: _pk,
    SK: _sk,
    GSI2PK: _gsi2pk,
    GSI2SK: _gsi2sk,
    GSI4PK: _gsi4pk,
    GSI4SK: _gsi4sk,
    GSI6PK: _gsi6pk,
    entityType: _entityType,
    sandboxReturnable: _sandboxReturnable,
    ...payment
  } = withoutLock(item);
  return { ...payment, version: Number(item.version) } as unknown as Payment;
}

/** A refund as the API shows it: its `paymentStatus` is that of `payment`, read with it. */
export function toRefund(item: Record<string, unknown>, payment: Pick<Payment, 'status'>): Refund {
  return {
    id: String(item.id),
    paymentId: String(item.paymentId),
    amount: Number(item.amount),
    currency: item.currency as Refund['currency'],
    processorReferenceId: String(item.processorReferenceId),
    refundedAt: String(item.refundedAt),
    paymentStatus: payment.status,
    // A refund stored before refunds had a status was the sandbox's, refunded at once.
    status: (item.status as Refund['status'] | undefined) ?? RefundStatus.succeeded,
  };
}

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
  const customerKey = customerKeys.customer(merchantId, customerId);
  const productKey = named === undefined ? undefined : catalogKeys.product(merchantId, named.productId);
  const priceKey =
    named === undefined ? undefined : catalogKeys.price(merchantId, named.productId, named.priceId);
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

/*
 * Requests that must call the payment processor before they can write go in three steps (reserve,
 * call, complete), so a retry never charges twice
 * (docs/decisions/calling-the-processor-without-charging-twice.md).
 */

/** Longer than any function that holds a lease can run (API Gateway stops waiting at 29 s). */
export const processorCallLeaseMs = 60_000;

/** The attributes of a locked item: which call holds it and until when (epoch ms). */
const lockAttributes = { id: 'processorCallId', until: 'processorCallUntil' } as const;

/** The primary key of a lockable item (an invoice, a payment). */
export interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

export interface ProcessorCallLock {
  readonly key: ItemKey;
  /** A condition that holds while the item is as the caller read it (its revision, say). */
  readonly asRead: Condition;
  /** A limit the item must be within for the call to go ahead. */
  readonly admission?: ProcessorCallAdmission;
  /** The 409 `payment_in_progress` message while another call holds the item; a payment's by default. */
  readonly busyMessage?: string;
}

/**
 * A limit kept on the locked item, checked by the reservation itself so it costs no read, and the
 * error a reservation refused by it answers (judged on the item as the failed condition found it).
 */
export interface ProcessorCallAdmission {
  /** Joined with AND to the lock's other conditions (each one parenthesized, none nested). */
  readonly conditions: readonly Condition[];
  readonly refusal: (item: Record<string, unknown>) => Error | undefined;
}

export interface Condition {
  readonly expression: string;
  readonly names?: Record<string, string>;
  readonly values?: Record<string, unknown>;
}

/**
 * Another processor call holds the item: 409 `payment_in_progress`, worth retrying in a moment. Not
 * stored for the idempotency key: the call holding the lock ends within seconds, and a retry then
 * goes through.
 */
export class ProcessorCallBusy extends AnswerableError {
  override name = 'ProcessorCallBusy';
  constructor(message = 'Another payment request for this is being processed.') {
    super(message);
  }

  answer(): ErrorAnswer {
    return { code: 'payment_in_progress', message: this.message };
  }
}

/**
 * Step 1. Returns the id the call must use: `callId` for a new reservation, the first request's id
 * for a takeover; with a lock, `undefined` when the item changed since it was read (or is gone):
 * read it again and decide again. Throws an IdempotentReplay (already completed),
 * IdempotencyInProgress (still running, or another payload) or ProcessorCallBusy.
 */
export async function reserveProcessorCall(
  context: IdempotencyContext,
  input: { readonly callId: string },
): Promise<string>;
export async function reserveProcessorCall(
  context: IdempotencyContext,
  input: { readonly callId: string; readonly lock: ProcessorCallLock },
): Promise<string | undefined>;
export async function reserveProcessorCall(
  context: IdempotencyContext,
  input: { readonly callId: string; readonly lock?: ProcessorCallLock },
): Promise<string | undefined> {
  let takeover: { callId: string; leaseUntil: number } | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const callId = takeover?.callId ?? input.callId;
    const leaseUntil = context.now.getTime() + processorCallLeaseMs;
    const items: TransactItems = [reservationPut(context, callId, leaseUntil, takeover?.leaseUntil)];
    if (input.lock !== undefined) items.push(lockUpdate(input.lock, callId, leaseUntil, context.now));
    try {
      await sendTransaction(items);
      return callId;
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed)) throw error;
      const record = error.failureAt(0);
      if (record !== undefined) {
        const existing = record.existing;
        if (existing === undefined) {
          takeover = undefined; // released meanwhile: reserve afresh
          continue;
        }
        const outcome = replayOf(context, existing);
        const expired = Number(existing.leaseUntil) < context.now.getTime();
        if (outcome instanceof IdempotencyInProgress && outcome.sameRequest && expired) {
          takeover = { callId: String(existing.callId), leaseUntil: Number(existing.leaseUntil) };
          continue;
        }
        throw outcome;
      }
      const locked = error.failureAt(1)?.existing;
      if (locked !== undefined && isLive(locked, context.now) && locked[lockAttributes.id] !== callId) {
        throw new ProcessorCallBusy(input.lock?.busyMessage);
      }
      const refused = locked === undefined ? undefined : input.lock?.admission?.refusal(locked);
      if (refused !== undefined) throw refused;
      return undefined;
    }
  }
  throw new IdempotencyInProgress(true);
}

/**
 * Step 2. Runs the processor call. When the processor can't answer, the reservation and the lock
 * are dropped before the error goes on, so a retry starts afresh. Every call is counted, and every
 * failed one, for the processor-errors alarm (docs/operations.md).
 */
export async function callProcessor<T>(
  context: IdempotencyContext,
  callId: string,
  lockKey: ItemKey | undefined,
  call: () => Promise<T>,
  metrics: ProcessorMetrics = processorMetrics(),
): Promise<T> {
  try {
    return await measuredProcessorCall(call, metrics);
  } catch (error) {
    await releaseProcessorCall(context, callId, lockKey);
    throw error;
  }
}

/**
 * Step 3. Stores `response` for the key and writes `items` in one transaction. When the record is
 * no longer this call's (a takeover finished it first), the stored outcome is replayed instead.
 * When a condition of `items` fails, `redo` may give the items to send instead, once, built from
 * the old images of the failure (`failureAt(i + 1)` is `items[i]`'s).
 */
export async function completeProcessorCall(
  context: IdempotencyContext,
  callId: string,
  response: StoredResponse,
  items: TransactItems,
  redo?: (failure: TransactionConditionFailed) => TransactItems | undefined,
): Promise<StoredResponse> {
  const { Put } = buildIdempotencyRecordPut(context, response);
  const complete = {
    Put: {
      ...Put,
      Item: { ...Put.Item, callId },
      ...reservationHeldBy(callId),
    },
  };
  let sending = items;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await sendTransaction([complete, ...sending]);
      return response;
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed)) throw error;
      if (error.failureAt(0) !== undefined) {
        await replayStoredOutcome(context);
        throw new IdempotencyInProgress(true);
      }
      const again = attempt === 1 ? redo?.(error) : undefined;
      if (again === undefined) throw error;
      sending = again;
    }
  }
}

/** Drops the reservation and the lock. Best effort: a lease that is not released simply runs out. */
async function releaseProcessorCall(
  context: IdempotencyContext,
  callId: string,
  lockKey?: ItemKey,
): Promise<void> {
  const items: TransactItems = [
    {
      Delete: {
        TableName: tableName(),
        Key: idempotencyKeys.idempotencyRecord(context.scopeHash),
        ...reservationHeldBy(callId),
      },
    },
  ];
  if (lockKey !== undefined) items.push({ Update: buildUnlock(lockKey, callId) });
  await sendTransaction(items).catch(() => undefined);
}

/** The record is still this call's reservation: neither completed nor taken over. */
function reservationHeldBy(callId: string) {
  return {
    ConditionExpression: '#state = :inProgress AND callId = :callId',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':inProgress': inProgressState, ':callId': callId },
  };
}

/** The condition a write of a locked item carries: this call still holds the lock. */
export function lockHeldBy(callId: string): Condition {
  return {
    expression: '#lockId = :lockId',
    names: { '#lockId': lockAttributes.id },
    values: { ':lockId': callId },
  };
}

/** True when `item` (an old image) is locked by the call `callId`. */
export function isLockHeldBy(item: Record<string, unknown> | undefined, callId: string): boolean {
  return item?.[lockAttributes.id] === callId;
}

/** The condition every other writer of a lockable item carries: no live processor call holds it. */
export function lockFree(now: Date): Condition {
  return {
    expression: 'attribute_not_exists(#lockId) OR #lockUntil < :lockNow',
    names: { '#lockId': lockAttributes.id, '#lockUntil': lockAttributes.until },
    values: { ':lockNow': now.getTime() },
  };
}

/** True when `item` (an old image) is held by a processor call that is still running. */
export function isLockedByLiveCall(item: Record<string, unknown> | undefined, now: Date): boolean {
  return item !== undefined && isLive(item, now);
}

/** The Update that releases the lock without changing the item otherwise (a call that failed). */
export function buildUnlock(key: ItemKey, callId: string) {
  const held = lockHeldBy(callId);
  return {
    TableName: tableName(),
    Key: { ...key },
    UpdateExpression: 'REMOVE #lockId, #lockUntil',
    ConditionExpression: held.expression,
    ExpressionAttributeNames: { ...held.names, '#lockUntil': lockAttributes.until },
    ExpressionAttributeValues: held.values,
  };
}

/** What an Update by the lock's holder removes to release it together with its change. */
export const lockRelease = {
  attributes: ['#lockId', '#lockUntil'],
  names: { '#lockId': lockAttributes.id, '#lockUntil': lockAttributes.until },
} as const;

/** Joins conditions with AND, merging their names and values. */
export function allOf(...conditions: readonly Condition[]) {
  return {
    // DynamoDB refuses redundant parentheses, so a lone condition stays bare.
    ConditionExpression:
      conditions.length === 1
        ? (conditions[0]?.expression ?? '')
        : conditions.map((condition) => `(${condition.expression})`).join(' AND '),
    ExpressionAttributeNames: Object.assign({}, ...conditions.map((condition) => condition.names ?? {})),
    ...(conditions.some((condition) => condition.values !== undefined)
      ? {
          ExpressionAttributeValues: Object.assign(
            {},
            ...conditions.map((condition) => condition.values ?? {}),
          ),
        }
      : {}),
  } as {
    ConditionExpression: string;
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  };
}

/** Lock attributes are bookkeeping: item readers drop them before an item becomes a resource. */
export function withoutLock<T extends Record<string, unknown>>(item: T): T {
  const { [lockAttributes.id]: _id, [lockAttributes.until]: _until, ...rest } = item;
  return rest as T;
}

function isLive(item: Record<string, unknown>, now: Date): boolean {
  return typeof item[lockAttributes.id] === 'string' && Number(item[lockAttributes.until]) >= now.getTime();
}

/**
 * The in-progress record. A new reservation needs no live record; a takeover needs the dead one it
 * read, lease and all, so two retries can't both take it over.
 */
function reservationPut(
  context: IdempotencyContext,
  callId: string,
  leaseUntil: number,
  takenOverLease: number | undefined,
) {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...idempotencyRecordItem(context), state: inProgressState, callId, leaseUntil },
      ...(takenOverLease === undefined
        ? noLiveRecord(context)
        : {
            ConditionExpression: '#state = :inProgress AND callId = :callId AND leaseUntil = :lease',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: {
              ':inProgress': inProgressState,
              ':callId': callId,
              ':lease': takenOverLease,
            },
          }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

function lockUpdate(lock: ProcessorCallLock, callId: string, leaseUntil: number, now: Date) {
  const condition = allOf(
    lock.asRead,
    {
      expression: 'attribute_not_exists(#lockId) OR #lockUntil < :lockNow OR #lockId = :lockId',
      names: { '#lockId': lockAttributes.id, '#lockUntil': lockAttributes.until },
      values: { ':lockNow': now.getTime(), ':lockId': callId },
    },
    ...(lock.admission?.conditions ?? []),
  );
  return {
    Update: {
      TableName: tableName(),
      Key: { ...lock.key },
      UpdateExpression: 'SET #lockId = :lockId, #lockUntil = :leaseUntil',
      ...condition,
      ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ':leaseUntil': leaseUntil },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}
