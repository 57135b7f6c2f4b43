import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type ProcessorAccount, ProcessorAccountState } from '../domain/processor-account';
import { documentClient, tableName } from './client';
import { EntityType, merchantPartition } from './table';

export const processorAccountKeys = {
  /** One per merchant, in the merchant's own partition. */
  processorAccount: (merchantId: string) => ({ PK: merchantPartition(merchantId), SK: 'PROCESSOR_ACCOUNT' }),
} as const;

/** The merchant's processor account; consistent, since a link is decided on it. */
export async function getProcessorAccount(merchantId: string): Promise<ProcessorAccount | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: processorAccountKeys.processorAccount(merchantId),
      ConsistentRead: true,
    }),
  );
  return Item === undefined ? undefined : toProcessorAccount(Item);
}

/** A new account: written only where none is, so a link never replaces another. */
export function buildPutProcessorAccount(account: ProcessorAccount) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...processorAccountKeys.processorAccount(account.merchantId),
        entityType: EntityType.processorAccount,
        ...account,
        // Every applied event of the processor raises it (docs/decisions/stripe-events-in.md).
        version: 1,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

export function toProcessorAccount(item: Record<string, unknown>): ProcessorAccount {
  const state = String(item.state);
  return {
    merchantId: String(item.merchantId),
    processor: String(item.processor),
    processorAccountId: String(item.processorAccountId),
    state: Object.values<string>(ProcessorAccountState).includes(state)
      ? (state as ProcessorAccount['state'])
      : ProcessorAccountState.pending,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}
