import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Stage } from '../config';
import type { ApiKeyStatus } from '../domain/api-key';
import { type ShardHistory, toShardHistory } from '../domain/shard-history';
import { documentClient, tableName } from './client';
import { queryAll } from './reads';
import { configPartitionKey, EntityType, merchantPartition } from './table';

export const merchantKeys = {
  merchant: (merchantId: string) => ({ PK: merchantPartition(merchantId), SK: 'MERCHANT' }),
  /** API keys are looked up by the key id embedded in the bearer token, without a merchant. */
  apiKey: (keyId: string) => ({ PK: `APIKEY#${keyId}`, SK: 'APIKEY' }),
  apiKeyOfMerchant: (merchantId: string, createdAt: string, keyId: string) => ({
    GSI1PK: `${merchantPartition(merchantId)}#APIKEYS`,
    GSI1SK: `${createdAt}#${keyId}`,
  }),
  apiKeysOfMerchantPartition: (merchantId: string) => `${merchantPartition(merchantId)}#APIKEYS`,
  cursorSigningKey: () => ({ PK: configPartitionKey, SK: 'CURSOR_SIGNING_KEY' }),
} as const;

export interface Merchant {
  readonly merchantId: string;
  readonly name: string;
  readonly createdAt: string;
  /** Where a customer's reply to an invoice email goes (its `Reply-To`), when set. */
  readonly supportEmail?: string;
  /** Where the service tells the merchant what needs its attention (a failing endpoint), when set. */
  readonly notificationEmail?: string;
}

/** The addresses an operator sets on a merchant (`merchants contacts`); null removes one. */
export type MerchantContacts = Partial<
  Record<'supportEmail' | 'notificationEmail', string | null | undefined>
>;

/** Sets or removes the merchant's contact addresses; undefined when there is no such merchant. */
export async function updateMerchantContacts(
  merchantId: string,
  contacts: MerchantContacts,
): Promise<Merchant | undefined> {
  const entries = Object.entries(contacts).filter(([, value]) => value !== undefined);
  const sets = entries.filter(([, value]) => value !== null);
  const removes = entries.filter(([, value]) => value === null);
  const clauses = [
    ...(sets.length === 0 ? [] : [`SET ${sets.map(([name]) => `#${name} = :${name}`).join(', ')}`]),
    ...(removes.length === 0 ? [] : [`REMOVE ${removes.map(([name]) => `#${name}`).join(', ')}`]),
  ];
  if (clauses.length === 0) return getMerchant(merchantId);
  try {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: merchantKeys.merchant(merchantId),
        UpdateExpression: clauses.join(' '),
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
        ...(sets.length === 0
          ? {}
          : {
              ExpressionAttributeValues: Object.fromEntries(sets.map(([name, value]) => [`:${name}`, value])),
            }),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes === undefined ? undefined : toMerchant(Attributes);
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

function toMerchant(item: Record<string, unknown>): Merchant {
  const optional = (name: 'supportEmail' | 'notificationEmail') =>
    typeof item[name] === 'string' ? { [name]: item[name] as string } : {};
  return {
    merchantId: String(item.merchantId),
    name: String(item.name),
    createdAt: String(item.createdAt),
    ...optional('supportEmail'),
    ...optional('notificationEmail'),
  };
}

export function buildPutMerchant(merchant: Merchant) {
  return {
    TableName: tableName(),
    Item: { ...merchantKeys.merchant(merchant.merchantId), entityType: EntityType.merchant, ...merchant },
    ConditionExpression: 'attribute_not_exists(PK)',
  };
}

export async function putMerchant(merchant: Merchant): Promise<void> {
  await documentClient().send(new PutCommand(buildPutMerchant(merchant)));
}

export async function getMerchant(merchantId: string): Promise<Merchant | undefined> {
  return (await getMerchantRecord(merchantId))?.merchant;
}

/** The merchant and its write shard history (`merchant-shards`; empty: one shard). */
export interface MerchantRecord {
  readonly merchant: Merchant;
  readonly writeShards: ShardHistory;
}

/**
 * Eventually consistent: a raise of the shard count takes effect ten minutes after it is written,
 * so a read a moment behind still knows every shard a writer may use.
 */
export async function getMerchantRecord(merchantId: string): Promise<MerchantRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: merchantKeys.merchant(merchantId) }),
  );
  return Item === undefined
    ? undefined
    : {
        merchant: toMerchant(Item),
        writeShards: toShardHistory(Item.writeShards),
      };
}

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
      ...merchantKeys.apiKey(record.keyId),
      ...merchantKeys.apiKeyOfMerchant(record.merchantId, record.createdAt, record.keyId),
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
    new GetCommand({ TableName: tableName(), Key: merchantKeys.apiKey(keyId), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : toApiKeyRecord(Item);
}

export async function listApiKeys(merchantId: string): Promise<ApiKeyRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :partition',
    ExpressionAttributeValues: { ':partition': merchantKeys.apiKeysOfMerchantPartition(merchantId) },
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
        Key: merchantKeys.apiKey(keyId),
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

let cached: Uint8Array | undefined;

/**
 * The HMAC key for list cursors lives in the table itself: created once by whichever function
 * needs it first (a conditional put decides the race), then read once per container. No extra
 * service, and every function of one stage agrees on it.
 */
export async function cursorSigningKey(): Promise<Uint8Array> {
  if (cached !== undefined) return cached;
  const key = merchantKeys.cursorSigningKey();
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }),
  );
  if (typeof Item?.secret === 'string') {
    cached = Buffer.from(Item.secret, 'base64');
    return cached;
  }
  const secret = randomBytes(32).toString('base64');
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...key, entityType: EntityType.config, secret },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    cached = Buffer.from(secret, 'base64');
    return cached;
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    cached = undefined;
    return cursorSigningKey();
  }
}

export function resetCursorSigningKey(): void {
  cached = undefined;
}
