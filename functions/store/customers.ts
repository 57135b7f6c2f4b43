import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Customer } from '../domain/customer';
import { documentClient, tableName } from './client';
import { EntityType, keys, SortKeyPrefix } from './keys';
import { queryMerchantItems } from './reads';

export function buildPutCustomer(customer: Customer) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.customer(customer.merchantId, customer.customerId),
        entityType: EntityType.customer,
        ...customer,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/** Looked up in the merchant's own partition, so another merchant's customer is simply absent. */
export async function getCustomer(merchantId: string, customerId: string): Promise<Customer | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.customer(merchantId, customerId) }),
  );
  return Item === undefined ? undefined : toCustomer(Item);
}

/** Newest first. */
export function queryCustomers(
  merchantId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
) {
  const partition = keys.merchantPartition(merchantId);
  return queryMerchantItems(tableName(), partition, SortKeyPrefix.customer, { limit, startKey });
}

export function toCustomer(item: Record<string, unknown>): Customer {
  return {
    customerId: String(item.customerId),
    merchantId: String(item.merchantId),
    name: String(item.name),
    email: String(item.email),
    createdAt: String(item.createdAt),
  };
}
