import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Currency } from '../domain/money';
import type { Price } from '../domain/price';
import type { Product, ProductStatus } from '../domain/product';
import { documentClient, tableName } from './client';
import { queryMerchantItems } from './reads';
import { EntityType, merchantPartition, SortKeyPrefix } from './table';

export const catalogKeys = {
  product: (merchantId: string, productId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.product}${productId}`,
  }),
  /** Prices sort under their product, so one Query lists a product's prices. */
  price: (merchantId: string, productId: string, priceId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.price}${productId}#${priceId}`,
  }),
  pricesOfProductPrefix: (productId: string) => `${SortKeyPrefix.price}${productId}#`,
} as const;

export function buildPutProduct(product: Product) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...catalogKeys.product(product.merchantId, product.productId),
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
      Key: catalogKeys.product(product.merchantId, product.productId),
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
    new GetCommand({ TableName: tableName(), Key: catalogKeys.product(merchantId, productId) }),
  );
  return Item === undefined ? undefined : toProduct(Item);
}

/** Newest first. */
export function queryProducts(
  merchantId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
) {
  const partition = merchantPartition(merchantId);
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

export function buildPutPrice(price: Price) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...catalogKeys.price(price.merchantId, price.productId, price.priceId),
        entityType: EntityType.price,
        ...price,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/**
 * The product a new price belongs to must exist in the merchant's own partition. Checked inside the
 * create transaction rather than read before it: one round trip, and never a stale 404 that the
 * idempotency record would then keep for 24 h. Either status passes (prices may be prepared before
 * a product is activated).
 */
export function buildProductExistsCheck(merchantId: string, productId: string) {
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: catalogKeys.product(merchantId, productId),
      ConditionExpression: 'attribute_exists(PK)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

export async function getPrice(
  merchantId: string,
  productId: string,
  priceId: string,
): Promise<Price | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: catalogKeys.price(merchantId, productId, priceId) }),
  );
  return Item === undefined ? undefined : toPrice(Item);
}

/** Newest first: a product's prices share a sort-key prefix and end in time-ordered TypeIDs. */
export function queryPrices(
  merchantId: string,
  productId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
) {
  const partition = merchantPartition(merchantId);
  return queryMerchantItems(tableName(), partition, catalogKeys.pricesOfProductPrefix(productId), {
    limit,
    startKey,
  });
}

export function toPrice(item: Record<string, unknown>): Price {
  return {
    priceId: String(item.priceId),
    productId: String(item.productId),
    merchantId: String(item.merchantId),
    unitAmount: Number(item.unitAmount),
    currency: item.currency as Currency,
    createdAt: String(item.createdAt),
  };
}
