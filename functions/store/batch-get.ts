import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { type JitterRetry, retryWithJitter } from './retry-with-jitter';

/** BatchGetItem takes at most 100 keys per request. */
const batchLimit = 100;

/**
 * The items of `allKeys` that exist, in any order: 100 keys a request, requests in parallel, keys
 * left unprocessed asked again. Strongly consistent, so an item written a moment ago is seen.
 */
export async function batchGet(allKeys: Record<string, string>[]): Promise<Record<string, unknown>[]> {
  const chunks: Record<string, string>[][] = [];
  for (let index = 0; index < allKeys.length; index += batchLimit)
    chunks.push(allKeys.slice(index, index + batchLimit));
  const pages = await Promise.all(chunks.map((chunk) => batchGetChunk(chunk)));
  return pages.flat();
}

/** Keys left unprocessed (throttled) are asked again, 10 requests at most, with growing jitter. */
const unprocessedRetry: JitterRetry = { attempts: 10, baseMs: 50, capMs: Number.POSITIVE_INFINITY };

class UnprocessedKeys extends Error {
  override name = 'UnprocessedKeys';
}

async function batchGetChunk(chunk: Record<string, string>[]): Promise<Record<string, unknown>[]> {
  const table = tableName();
  const items: Record<string, unknown>[] = [];
  let pending: Record<string, unknown>[] = chunk;
  await retryWithJitter(
    unprocessedRetry,
    async () => {
      const result: BatchGetCommandOutput = await documentClient().send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
      );
      items.push(...(result.Responses?.[table] ?? []));
      pending = result.UnprocessedKeys?.[table]?.Keys ?? [];
      if (pending.length > 0) throw new UnprocessedKeys('BatchGetItem left keys unprocessed');
    },
    (error) => error instanceof UnprocessedKeys,
  );
  return items;
}
