import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { raiseMerchantShards } from '../../functions/domain/merchant-shards';
import type { ShardHistory } from '../../functions/domain/shard-history';
import { documentClient, tableName } from '../../functions/store/client';
import { keys } from '../../functions/store/keys';
import { getMerchantRecord } from '../../functions/store/merchants';
import { AdminError, refusedAsAdminError } from './operations';

export interface RaisedMerchantShards {
  readonly merchantId: string;
  readonly writeShards: ShardHistory;
}

/**
 * Raises how many partitions a merchant's payments, refunds, invoices and payouts spread over,
 * from ten minutes after now (see `raiseShards`). The same count again writes nothing and prints
 * the history as it is.
 */
export async function raiseMerchantShardCount(
  merchantId: string,
  count: number,
  options: { now?: Date } = {},
): Promise<RaisedMerchantShards> {
  const stored = await getMerchantRecord(merchantId);
  if (stored === undefined) throw new AdminError(`merchant ${merchantId} does not exist`);
  const writeShards = refusedAsAdminError(() =>
    raiseMerchantShards(stored.writeShards, count, options.now ?? new Date()),
  );
  if (
    writeShards !== stored.writeShards &&
    !(await replaceShards(merchantId, stored.writeShards, writeShards))
  ) {
    throw new AdminError(`merchant ${merchantId} changed while it was read: run the command again`);
  }
  return { merchantId, writeShards };
}

/**
 * Replaces the history only while it is still the one read, so two raises at once cannot both
 * append. False when it changed in between.
 */
async function replaceShards(
  merchantId: string,
  previous: ShardHistory,
  next: ShardHistory,
): Promise<boolean> {
  const first = previous.length === 0;
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.merchant(merchantId),
        UpdateExpression: 'SET writeShards = :next',
        ConditionExpression: first
          ? 'attribute_exists(PK) AND attribute_not_exists(writeShards)'
          : 'writeShards = :previous',
        ExpressionAttributeValues: { ':next': next, ...(first ? {} : { ':previous': previous }) },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
