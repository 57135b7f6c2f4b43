import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../functions/store/client';

/** Sets the `ttl` (epoch seconds) of the item at `key` in `table`: a past one makes it expired. */
export function setItemTtl(table: string | undefined, key: Record<string, unknown>, ttl: number) {
  return documentClient().send(
    new UpdateCommand({
      TableName: table,
      Key: key,
      UpdateExpression: 'SET #ttl = :ttl',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':ttl': ttl },
    }),
  );
}
