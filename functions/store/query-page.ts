import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';

export interface QueryPage {
  readonly items: Record<string, unknown>[];
  /** Key of the last returned item when more items follow; exact, not DynamoDB's guess. */
  readonly lastKey: Record<string, unknown> | undefined;
}

/**
 * One Query round trip for one page. It asks for `limit + 1` items so `hasMore` is exact: the extra
 * item is not returned, it only proves that another page exists.
 */
export async function queryPage(
  input: QueryCommandInput,
  page: { limit: number; startKey: Record<string, unknown> | undefined; keyAttributes: readonly string[] },
): Promise<QueryPage> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({ ...input, Limit: page.limit + 1, ExclusiveStartKey: page.startKey }),
  );
  const items = Items.slice(0, page.limit);
  const last = items.at(-1);
  const lastKey =
    Items.length > page.limit && last !== undefined
      ? Object.fromEntries(page.keyAttributes.map((name) => [name, last[name]]))
      : undefined;
  return { items, lastKey };
}
