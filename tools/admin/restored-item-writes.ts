import type { PutItemCommandInput } from '@aws-sdk/client-dynamodb';
import type { StoredItem } from './same-item';

/**
 * The live table lacks the item: write it only while it still does, so a write the service made
 * since the comparison (a merchant recreating the thing) is never replaced by the older copy.
 * The failed item is only counted, never shown, so no old image is asked for.
 */
export function buildPutMissingItem(tableName: string, restored: StoredItem): PutItemCommandInput {
  const stillAbsent = 'attribute_not_exists(PK)';
  return { TableName: tableName, Item: restored, ConditionExpression: stillAbsent };
}

/**
 * The live item differs from the restored one: replace it only while it is still exactly the item
 * that was compared. Each attribute it had must hold the value read, and each attribute only the
 * restored item has must still be absent; so a write in between (a payment, a delivery attempt)
 * fails the condition and is left alone. DynamoDB compares maps, lists and sets by value.
 */
export function buildReplaceDifferingItem(
  tableName: string,
  restored: StoredItem,
  live: StoredItem,
): PutItemCommandInput {
  const names: Record<string, string> = {};
  const values: StoredItem = {};
  const unchanged: string[] = [];
  const stillAbsent: string[] = [];
  const attributes = [...new Set([...Object.keys(live), ...Object.keys(restored)])];
  attributes.forEach((attribute, index) => {
    names[`#a${index}`] = attribute;
    const value = live[attribute];
    if (value === undefined) {
      stillAbsent.push(`attribute_not_exists(#a${index})`);
      return;
    }
    values[`:a${index}`] = value;
    unchanged.push(`#a${index} = :a${index}`);
  });
  return {
    TableName: tableName,
    Item: restored,
    ConditionExpression: [...unchanged, ...stillAbsent].join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
