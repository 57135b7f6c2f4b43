import { expect } from 'vitest';
import type { ApiClient } from './local-runtime';

/**
 * Follows `nextCursor` through every page of a list. Each page must be a 200 whose `hasMore` says
 * exactly whether a `nextCursor` came with it. Returns the items in order and the page count.
 */
export async function allPages(
  api: ApiClient,
  path: string,
  query: Record<string, string | number>,
): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const result = await api('GET', path, {
      query: { ...query, ...(cursor === undefined ? {} : { cursor }) },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    items.push(...result.body.items);
    expect(result.body.page.hasMore).toBe(result.body.page.nextCursor !== undefined);
    cursor = result.body.page.nextCursor;
    pages += 1;
  } while (cursor !== undefined);
  return { items, pages };
}

/** The page sizes every list refuses, outside 1–100, each with the message of its 400. */
export const refusedLimits = [
  [0, 'must be at least 1.'],
  [101, 'must be at most 100.'],
  [2.5, 'must be an integer.'],
] as const;
