import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Product, ProductStatus } from '../domain/product';
import { documentClient, tableName } from './client';
import { EntityType, keys, SortKeyPrefix } from './keys';
import { queryMerchantItems } from './query-page';

export function buildPutProduct(product: Product) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.product(product.merchantId, product.productId),
        entityType: EntityType.product,
        ...product,
        updatedAt: product.createdAt,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

export function buildSetProductStatus(product: Product, status: ProductStatus, updatedAt: string) {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.product(product.merchantId, product.productId),
      UpdateExpression: 'SET #status = :status, #active = :active, #updatedAt = :updatedAt',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#status': 'status', '#active': 'active', '#updatedAt': 'updatedAt' },
      ExpressionAttributeValues: {
        ':status': status,
        ':active': status === 'active',
        ':updatedAt': updatedAt,
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

export async function getProduct(merchantId: string, productId: string): Promise<Product | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.product(merchantId, productId) }),
  );
  return Item === undefined ? undefined : toProduct(Item);
}

/** Newest first. */
export function queryProducts(
  merchantId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
) {
  const partition = keys.merchantPartition(merchantId);
  return queryMerchantItems(tableName(), partition, SortKeyPrefix.product, { limit, startKey });
}

export function toProduct(item: Record<string, unknown>): Product {
  return {
    productId: String(item.productId),
    merchantId: String(item.merchantId),
    name: String(item.name),
    status: item.status as ProductStatus,
    active: item.status === 'active',
    createdAt: String(item.createdAt),
    ...(typeof item.description === 'string' ? { description: item.description } : {}),
  };
}
