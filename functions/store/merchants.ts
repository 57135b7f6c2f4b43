import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type ShardHistory, toShardHistory } from '../domain/shard-history';
import { documentClient, tableName } from './client';
import { EntityType, keys } from './keys';

export interface Merchant {
  readonly merchantId: string;
  readonly name: string;
  readonly createdAt: string;
}

export function buildPutMerchant(merchant: Merchant) {
  return {
    TableName: tableName(),
    Item: { ...keys.merchant(merchant.merchantId), entityType: EntityType.merchant, ...merchant },
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
    new GetCommand({ TableName: tableName(), Key: keys.merchant(merchantId) }),
  );
  return Item === undefined
    ? undefined
    : {
        merchant: { merchantId: Item.merchantId, name: Item.name, createdAt: Item.createdAt },
        writeShards: toShardHistory(Item.writeShards),
      };
}
