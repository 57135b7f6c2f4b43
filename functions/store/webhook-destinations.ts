import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type RollingLimit, type UseHistory, withUse } from '../domain/endpoint-quotas';
import { destinationOf } from '../domain/webhook-destination';
import { documentClient, tableName } from './client';
import { EntityType, merchantPartition, SortKeyPrefix } from './table';

/*
 * The quota histories of a merchant's webhook destination
 * (docs/decisions/quotas-on-test-deliveries-and-recoveries.md): one item per merchant and destination
 * (host and path), whatever endpoint records point there, so deleting an endpoint and creating it again
 * starts no quota afresh. Bookkeeping, never part of a resource; it expires once its newest use has
 * left every window.
 */

export const QuotaAttribute = { testDeliveries: 'testDeliveriesAt', recoveries: 'recoveriesAt' } as const;
export type QuotaAttribute = (typeof QuotaAttribute)[keyof typeof QuotaAttribute];

export const destinationKeys = {
  /**
   * Keyed by a digest of the destination: a URL may be 2,048 characters, a sort key no more than 1 KB.
   * Its prefix sorts after the endpoints', outside the router's one Query of sequences and endpoints.
   */
  webhookDestination: (merchantId: string, url: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.webhookDestination}${createHash('sha256').update(destinationOf(url)).digest('base64url')}`,
  }),
} as const;

/** A history as stored; none for a destination never used. */
export function useHistoryOf(item: Record<string, unknown> | undefined, attribute: QuotaAttribute): number[] {
  const stored = item?.[attribute];
  return Array.isArray(stored) ? stored.map(Number) : [];
}

/** The destination's quota item, strongly consistent: the histories a use is decided from. */
export async function getDestinationUse(
  merchantId: string,
  url: string,
): Promise<Record<string, unknown> | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: destinationKeys.webhookDestination(merchantId, url),
      ConsistentRead: true,
    }),
  );
  return Item;
}

/**
 * A use at `at`: the destination's history with it, written only while the history is the one read,
 * so two uses that read the same history cannot both count from it: ALL_OLD hands the loser the
 * history as it is now. The item expires a window after this use (both quotas count an hour), when
 * none of its uses counts any more.
 */
export function buildRecordDestinationUse(
  merchantId: string,
  url: string,
  use: { readonly attribute: QuotaAttribute; readonly limit: RollingLimit },
  asRead: UseHistory,
  at: Date,
) {
  const next = withUse(use.limit, asRead, at);
  return {
    Update: {
      TableName: tableName(),
      Key: destinationKeys.webhookDestination(merchantId, url),
      UpdateExpression:
        'SET #history = :next, entityType = :entityType, merchantId = :merchantId, #ttl = :ttl',
      ConditionExpression: asRead.length === 0 ? 'attribute_not_exists(#history)' : '#history = :asRead',
      ExpressionAttributeNames: { '#history': use.attribute, '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':next': [...next],
        ':entityType': EntityType.webhookDestination,
        ':merchantId': merchantId,
        ':ttl': Math.ceil((at.getTime() + use.limit.windowMs) / 1000),
        ...(asRead.length === 0 ? {} : { ':asRead': [...asRead] }),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}
