import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Customer } from '../domain/customer';
import { documentClient, tableName } from './client';
import { queryMerchantItems } from './reads';
import { EntityType, merchantPartition, SortKeyPrefix } from './table';

export const customerKeys = {
  customer: (merchantId: string, customerId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.customer}${customerId}`,
  }),
} as const;

export function buildPutCustomer(customer: Customer) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...customerKeys.customer(customer.merchantId, customer.customerId),
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
    new GetCommand({ TableName: tableName(), Key: customerKeys.customer(merchantId, customerId) }),
  );
  return Item === undefined ? undefined : toCustomer(Item);
}

/** Newest first. */
export function queryCustomers(
  merchantId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
) {
  const partition = merchantPartition(merchantId);
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
