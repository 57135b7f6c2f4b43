import type { SequenceAdvance } from '../domain/delivery-sequence';
import type { UseHistory } from '../domain/endpoint-quotas';
import { tableName } from './client';
import { QuotaAttribute } from './endpoint-quotas';
import { EntityType, keys } from './keys';
import { TransactionConditionFailed } from './transaction';

/**
 * Advances an endpoint's delivery sequence from `from` to `to`, only while its last number is
 * still `from` (no item yet when `from` is 0): in the transaction that writes the numbered
 * deliveries, so a cancelled or retried transaction takes no number, and two writers that read the
 * same number cannot both take the next ones. ALL_OLD hands the loser the number it must continue
 * from, without a second read. A test delivery's advance also writes the endpoint's test-delivery
 * history: only a test delivery writes it, always with an advance, so the advance's condition also
 * proves the history is the one read (docs/decisions.md "Quotas on test deliveries and recoveries").
 */
export function buildAdvanceSequence(
  { merchantId, webhookEndpointId, from, to }: SequenceAdvance,
  testDeliveriesAt?: UseHistory,
) {
  const tests = testDeliveriesAt === undefined ? '' : ', #tests = :tests';
  return {
    Update: {
      TableName: tableName(),
      Key: keys.webhookDeliverySequence(merchantId, webhookEndpointId),
      UpdateExpression: `SET lastSequence = :to, entityType = :entityType, merchantId = :merchantId, webhookEndpointId = :endpointId${tests}`,
      ConditionExpression: from === 0 ? 'attribute_not_exists(lastSequence)' : 'lastSequence = :from',
      ...(testDeliveriesAt === undefined
        ? {}
        : { ExpressionAttributeNames: { '#tests': QuotaAttribute.testDeliveries } }),
      ExpressionAttributeValues: {
        ':to': to,
        ':entityType': EntityType.webhookDeliverySequence,
        ':merchantId': merchantId,
        ':endpointId': webhookEndpointId,
        ...(from === 0 ? {} : { ':from': from }),
        ...(testDeliveriesAt === undefined ? {} : { ':tests': [...testDeliveriesAt] }),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/** The last number of a stored sequence item (or of none: 0, before an endpoint's first delivery). */
export function lastSequenceOf(item: Record<string, unknown> | undefined): number {
  return typeof item?.lastSequence === 'number' ? item.lastSequence : 0;
}

/** Whether an item of the merchant's partition is a delivery sequence. */
export function isSequenceItem(item: Record<string, unknown>): boolean {
  return item.entityType === EntityType.webhookDeliverySequence;
}

/** How often a write is numbered afresh when other writers keep taking its numbers. */
const maxNumberingRounds = 10;

/**
 * Sends `write`, which numbers its deliveries on from `last` and advances the sequence in the
 * same transaction, at action `sequenceIndex`. When that advance's condition fails (another writer,
 * the router or a route, took the numbers since `lastSequence` was read), the failed condition
 * hands back the sequence as it is now, and `write` is sent again from its last number, with that
 * item (the one given at first, if any, before).
 */
export async function withNextNumbers<T>(
  lastSequence: number,
  sequenceIndex: number,
  write: (last: number, sequenceItem: Record<string, unknown> | undefined) => Promise<T>,
  sequenceItem?: Record<string, unknown>,
): Promise<T> {
  let last = lastSequence;
  let item = sequenceItem;
  for (let round = 1; ; round += 1) {
    try {
      return await write(last, item);
    } catch (error) {
      const moved = error instanceof TransactionConditionFailed ? error.failureAt(sequenceIndex) : undefined;
      if (moved === undefined || round >= maxNumberingRounds) throw error;
      last = lastSequenceOf(moved.existing);
      item = moved.existing;
    }
  }
}
