import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { EntityType, keys } from './keys';

let cached: Uint8Array | undefined;

/**
 * The HMAC key for list cursors lives in the table itself: created once by whichever function
 * needs it first (a conditional put decides the race), then read once per container. No extra
 * service, and every function of one stage agrees on it.
 */
export async function cursorSigningKey(): Promise<Uint8Array> {
  if (cached !== undefined) return cached;
  const key = keys.cursorSigningKey();
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
