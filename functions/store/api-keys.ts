import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Stage } from '../config';
import type { ApiKeyStatus } from '../domain/api-key';
import { documentClient, tableName } from './client';
import { EntityType, keys } from './keys';
import { queryAll } from './query-page';

/** What the table keeps of an API key: its hash, never the key. */
export interface ApiKeyRecord {
  readonly keyId: string;
  readonly keyPrefix: string;
  readonly keyHash: string;
  readonly merchantId: string;
  readonly stage: Stage;
  readonly status: ApiKeyStatus;
  readonly createdAt: string;
  readonly expiresAt?: string | undefined;
}

export function buildPutApiKey(record: ApiKeyRecord) {
  return {
    TableName: tableName(),
    Item: {
      ...keys.apiKey(record.keyId),
      ...keys.apiKeyOfMerchant(record.merchantId, record.createdAt, record.keyId),
      entityType: EntityType.apiKey,
      ...record,
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  };
}

export async function putApiKey(record: ApiKeyRecord): Promise<void> {
  await documentClient().send(new PutCommand(buildPutApiKey(record)));
}

/**
 * The authorizer's one read: a strongly consistent get, so it never answers from a key older than
 * the last revocation. Its answers are cached per key for 60 s, which is why the admin CLI flushes
 * that cache after a revocation or rotation.
 */
export async function getApiKey(keyId: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.apiKey(keyId), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : toApiKeyRecord(Item);
}

export async function listApiKeys(merchantId: string): Promise<ApiKeyRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :partition',
    ExpressionAttributeValues: { ':partition': keys.apiKeysOfMerchantPartition(merchantId) },
  });
  return items.map(toApiKeyRecord);
}

/** Sets status or expiry of an existing key; returns undefined when the key does not exist. */
export async function updateApiKey(
  keyId: string,
  change: { status?: ApiKeyStatus; expiresAt?: string },
): Promise<ApiKeyRecord | undefined> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  for (const [field, value] of Object.entries(change)) {
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  try {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(keyId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes === undefined ? undefined : toApiKeyRecord(Attributes);
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

function toApiKeyRecord(item: Record<string, unknown>): ApiKeyRecord {
  return {
    keyId: String(item.keyId),
    keyPrefix: String(item.keyPrefix),
    keyHash: String(item.keyHash),
    merchantId: String(item.merchantId),
    stage: item.stage as Stage,
    status: item.status as ApiKeyStatus,
    createdAt: String(item.createdAt),
    ...(typeof item.expiresAt === 'string' ? { expiresAt: item.expiresAt } : {}),
  };
}
