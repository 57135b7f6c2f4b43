import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { typeIdBound } from '../domain/id-time-bounds';
import type { Payment, PaymentStatus, Payout, Refund } from '../domain/payment';
import type { ShardHistory } from '../domain/shard-history';
import { documentClient, tableName } from './client';
import { EntityType, keys, SortKeyPrefix } from './keys';
import { allOf, type Condition, lockFree, lockHeldBy, withoutLock } from './processor-calls';
import { queryMerchantItems, queryPartitionsPage } from './query-page';
import { shardsOfPage } from './shard-pages';

/**
 * `sandboxReturnable` marks a payment from the sandbox's returning test account, the only kind the
 * sandbox return route returns (docs/sandbox-testing.md). It stays in the table, never in the API.
 */
export function buildPutPayment(payment: Payment, options: { sandboxReturnable?: boolean } = {}) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.payment(payment.merchantId, payment.paymentId),
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

/** A refund applied by the call holding the payment's lock, which this write releases. */
export function buildApplyRefund(next: Payment, callId: string) {
  const held = lockHeldBy(callId);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.payment(next.merchantId, next.paymentId),
      UpdateExpression:
        'SET amountRefunded = :amountRefunded, #status = :status, updatedAt = :updatedAt, #version = :version REMOVE #lockId, #lockUntil',
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
      },
    },
  };
}

/** A return: only while the payment is as read and no refund of it is at the processor. */
export function buildApplyReturn(previous: Payment, next: Payment, now: Date) {
  const condition = allOf(paymentAsRead(previous), lockFree(now));
  return {
    Update: {
      TableName: tableName(),
      Key: keys.payment(next.merchantId, next.paymentId),
      UpdateExpression: 'SET #status = :status, updatedAt = :updatedAt, #version = :version',
      ...condition,
      ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, '#version': 'version' },
      ExpressionAttributeValues: {
        ...condition.ExpressionAttributeValues,
        ':status': next.status,
        ':updatedAt': next.updatedAt,
        ':version': next.version,
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

export function buildPutPayout(payout: Payout) {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.payout(payout.merchantId, payout.payoutId), entityType: EntityType.payout, ...payout },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

export function buildPutRefund(merchantId: string, refund: Refund) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.refund(merchantId, refund.paymentId, refund.id),
        entityType: EntityType.refund,
        merchantId,
        ...refund,
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
      Key: keys.payment(merchantId, paymentId),
      ConsistentRead: true,
    }),
  );
  return Item === undefined
    ? undefined
    : { payment: toPayment(Item), sandboxReturnable: Item.sandboxReturnable === true };
}

/** A refund only under its own payment: any other pairing is simply absent (404). */
export async function getRefund(merchantId: string, paymentId: string, refundId: string) {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.refund(merchantId, paymentId, refundId),
      ConsistentRead: true,
    }),
  );
  return Item === undefined ? undefined : toRefund(Item);
}

export interface PaymentFilters {
  readonly status?: PaymentStatus | undefined;
  readonly customerId?: string | undefined;
  /** Inclusive bounds on createdAt, to the millisecond. */
  readonly createdFrom?: string | undefined;
  readonly createdTo?: string | undefined;
}

/**
 * Newest first. Payment ids are time-ordered TypeIDs, so a createdAt range is a sort-key range (one
 * key condition) in every shard of the merchant; status and customer filter the items read. A
 * merchant with one shard is one Query; with more, one per shard, run together and merged.
 */
export function queryPayments(
  merchantId: string,
  shards: ShardHistory,
  filters: PaymentFilters,
  limit: number,
  startKey: Record<string, unknown> | undefined,
) {
  const low =
    filters.createdFrom === undefined ? '' : typeIdBound('pmt', new Date(filters.createdFrom), 'lowest');
  const high =
    filters.createdTo === undefined ? '~' : typeIdBound('pmt', new Date(filters.createdTo), 'highest');
  const conditions = [
    ...(filters.status === undefined ? [] : ['#status = :status']),
    ...(filters.customerId === undefined ? [] : ['customerId = :customerId']),
  ];
  const cursorSortKey = startKey === undefined ? undefined : String(startKey.SK);
  const inShard = (shard: number) => {
    const partition = keys.merchantShardPartition(merchantId, shard);
    return {
      TableName: tableName(),
      KeyConditionExpression: 'PK = :partition AND SK BETWEEN :low AND :high',
      ExpressionAttributeValues: {
        ':partition': partition,
        ':low': `${SortKeyPrefix.payment}${low}`,
        ':high': `${SortKeyPrefix.payment}${high}`,
        ...(filters.status === undefined ? {} : { ':status': filters.status }),
        ...(filters.customerId === undefined ? {} : { ':customerId': filters.customerId }),
      },
      ...(conditions.length === 0
        ? {}
        : {
            FilterExpression: conditions.join(' AND '),
            ...(filters.status === undefined ? {} : { ExpressionAttributeNames: { '#status': 'status' } }),
          }),
      ScanIndexForward: false,
      // A cursor names the last payment of a page, in whichever shard: each shard goes on below it.
      ...(cursorSortKey === undefined ? {} : { ExclusiveStartKey: { PK: partition, SK: cursorSortKey } }),
    };
  };
  const shardsRead = shardsOfPage(shards, {
    id: cursorSortKey?.slice(SortKeyPrefix.payment.length),
    time: filters.createdTo,
  });
  return queryPartitionsPage(shardsRead.map(inShard), {
    limit,
    sortAttribute: 'SK',
    keyAttributes: ['PK', 'SK'],
  });
}

export function queryRefunds(
  merchantId: string,
  paymentId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
) {
  const partition = keys.partitionOfId(merchantId, paymentId);
  return queryMerchantItems(tableName(), partition, keys.refundsOfPaymentPrefix(paymentId), {
    limit,
    startKey,
  });
}

export function toPayment(item: Record<string, unknown>): Payment {
  const {
    PK: _pk,
    SK: _sk,
    entityType: _entityType,
    sandboxReturnable: _sandboxReturnable,
    ...payment
  } = withoutLock(item);
  // A payment stored before versions were kept counts as version 1 (docs/decisions.md).
  return { ...payment, version: typeof item.version === 'number' ? item.version : 1 } as unknown as Payment;
}

export function toRefund(item: Record<string, unknown>): Refund {
  return {
    id: String(item.id),
    paymentId: String(item.paymentId),
    amount: Number(item.amount),
    currency: item.currency as Refund['currency'],
    processorReferenceId: String(item.processorReferenceId),
    refundedAt: String(item.refundedAt),
    paymentStatus: item.paymentStatus as Refund['paymentStatus'],
  };
}
