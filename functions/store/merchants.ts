import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
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
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.merchant(merchantId) }),
  );
  return Item === undefined
    ? undefined
    : { merchantId: Item.merchantId, name: Item.name, createdAt: Item.createdAt };
}
