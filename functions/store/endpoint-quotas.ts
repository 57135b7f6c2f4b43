import type { UseHistory } from '../domain/endpoint-quotas';
import { tableName } from './client';
import { EntityType, keys } from './keys';

/*
 * An endpoint's quota histories (docs/decisions.md "Quotas on test deliveries and recoveries") are
 * kept on its delivery sequence item, which the test route and the recovery route already read
 * with the endpoint, and which only ever takes UpdateItems: no writer puts it back whole. They are
 * bookkeeping, never part of a resource.
 */

export const QuotaAttribute = { testDeliveries: 'testDeliveriesAt', recoveries: 'recoveriesAt' } as const;
export type QuotaAttribute = (typeof QuotaAttribute)[keyof typeof QuotaAttribute];

/** A history as stored; none on an endpoint that never used it. */
export function useHistoryOf(
  sequenceItem: Record<string, unknown> | undefined,
  attribute: QuotaAttribute,
): number[] {
  const stored = sequenceItem?.[attribute];
  return Array.isArray(stored) ? stored.map(Number) : [];
}

/**
 * A recovery's start writes the endpoint's new recovery history, only while it is the history read:
 * the running-recovery lock keeps two starts from running at once, not one that read before another
 * finished from writing over it. ALL_OLD hands a loser the history as it is now.
 */
export function buildRecordRecoveryUse(
  merchantId: string,
  webhookEndpointId: string,
  asRead: UseHistory,
  next: UseHistory,
) {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.webhookDeliverySequence(merchantId, webhookEndpointId),
      UpdateExpression:
        'SET #recoveries = :next, entityType = :entityType, merchantId = :merchantId, webhookEndpointId = :endpointId',
      ConditionExpression:
        asRead.length === 0 ? 'attribute_not_exists(#recoveries)' : '#recoveries = :asRead',
      ExpressionAttributeNames: { '#recoveries': QuotaAttribute.recoveries },
      ExpressionAttributeValues: {
        ':next': [...next],
        ':entityType': EntityType.webhookDeliverySequence,
        ':merchantId': merchantId,
        ':endpointId': webhookEndpointId,
        ...(asRead.length === 0 ? {} : { ':asRead': [...asRead] }),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}
