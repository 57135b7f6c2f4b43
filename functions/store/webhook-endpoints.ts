import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { maxEndpointsPerMerchant, type WebhookEndpoint } from '../domain/webhook-endpoint';
import { documentClient, tableName } from './client';
import { EntityType, keys, SortKeyPrefix } from './keys';
import { queryAll, queryPage } from './query-page';

/** An endpoint as stored: the API view, its sealed signing secret, and a version for conditional writes. */
export interface StoredWebhookEndpoint {
  readonly endpoint: WebhookEndpoint;
  readonly sealedSigningSecret: string;
  readonly version: number;
}

function endpointItem(stored: StoredWebhookEndpoint) {
  return {
    ...keys.webhookEndpoint(stored.endpoint.merchantId, stored.endpoint.webhookEndpointId),
    entityType: EntityType.webhookEndpoint,
    ...stored.endpoint,
    sealedSigningSecret: stored.sealedSigningSecret,
    version: stored.version,
  };
}

export function buildPutNewEndpoint(endpoint: WebhookEndpoint, sealedSigningSecret: string) {
  return {
    Put: {
      TableName: tableName(),
      Item: endpointItem({ endpoint, sealedSigningSecret, version: 1 }),
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** The next version of an endpoint, only while the stored version is the one read. */
export function buildReplaceEndpoint(
  previous: StoredWebhookEndpoint,
  next: Omit<StoredWebhookEndpoint, 'version'>,
) {
  return {
    Put: {
      TableName: tableName(),
      Item: endpointItem({ ...next, version: previous.version + 1 }),
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':version': previous.version },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/**
 * Counts endpoints that are not deleted: +1 on create only while fewer than 20 exist, −1 on delete.
 * In the same transaction as the endpoint, so concurrent creates can never pass the limit.
 */
export function buildAdjustEndpointCount(merchantId: string, delta: 1 | -1) {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.webhookEndpointCounter(merchantId),
      UpdateExpression: 'ADD #count :delta SET entityType = :entityType',
      ...(delta > 0 ? { ConditionExpression: 'attribute_not_exists(#count) OR #count < :max' } : {}),
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: {
        ':delta': delta,
        ':entityType': EntityType.webhookEndpointCounter,
        ...(delta > 0 ? { ':max': maxEndpointsPerMerchant } : {}),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

export async function getEndpoint(merchantId: string, webhookEndpointId: string) {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.webhookEndpoint(merchantId, webhookEndpointId),
      ConsistentRead: true,
    }),
  );
  return Item === undefined ? undefined : toStoredEndpoint(Item);
}

/** The merchant's endpoints that are not deleted, newest first. */
function liveEndpointsQuery(merchantId: string) {
  return {
    TableName: tableName(),
    KeyConditionExpression: 'PK = :partition AND begins_with(SK, :prefix)',
    FilterExpression: '#status <> :deleted',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':partition': keys.merchantPartition(merchantId),
      ':prefix': SortKeyPrefix.webhookEndpoint,
      ':deleted': 'deleted',
    },
    ScanIndexForward: false,
  };
}

export function queryEndpoints(
  merchantId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
) {
  return queryPage(liveEndpointsQuery(merchantId), { limit, startKey, keyAttributes: ['PK', 'SK'] });
}

/** Every endpoint of the merchant that is not deleted (at most 20): what the router fans out to. */
export async function liveEndpointsOf(merchantId: string): Promise<StoredWebhookEndpoint[]> {
  const items = await queryAll({ ...liveEndpointsQuery(merchantId), ConsistentRead: true });
  return items.map(toStoredEndpoint);
}

export function toStoredEndpoint(item: Record<string, unknown>): StoredWebhookEndpoint {
  return {
    endpoint: toEndpoint(item),
    sealedSigningSecret: String(item.sealedSigningSecret),
    version: Number(item.version),
  };
}

export function toEndpoint(item: Record<string, unknown>): WebhookEndpoint {
  return {
    webhookEndpointId: String(item.webhookEndpointId),
    merchantId: String(item.merchantId),
    url: String(item.url),
    ...(typeof item.name === 'string' ? { name: item.name } : {}),
    status: item.status as WebhookEndpoint['status'],
    eventTypes: item.eventTypes as WebhookEndpoint['eventTypes'],
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}
