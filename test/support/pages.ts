import { expect } from 'vitest';
import { type ApiClient, dynamoDbCommandsDuring } from './local-runtime';

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

/** Four reads of a list under a parent (a product's prices, a payment's refunds), run in this order. */
export interface ChildListReads {
  firstPage: () => Promise<void>;
  secondPage: () => Promise<void>;
  emptyPage: () => Promise<void>;
  unknownParent: () => Promise<void>;
}

/**
 * Runs `reads` and checks the DynamoDB round trips of each: a page that finds items is one Query;
 * an empty page also reads the parent, which is how an unknown parent's 404 is told apart.
 */
export async function expectParentReadOnlyWhenEmpty(reads: ChildListReads): Promise<void> {
  const firstPage = await dynamoDbCommandsDuring(reads.firstPage);
  const secondPage = await dynamoDbCommandsDuring(reads.secondPage);
  const emptyPage = await dynamoDbCommandsDuring(reads.emptyPage);
  const unknown = await dynamoDbCommandsDuring(reads.unknownParent);
  expect(firstPage).toEqual(['QueryCommand']);
  expect(secondPage).toEqual(['QueryCommand']);
  expect(emptyPage).toEqual(['QueryCommand', 'GetItemCommand']);
  expect(unknown).toEqual(['QueryCommand', 'GetItemCommand']);
}

/**
 * Runs `reads` and checks the DynamoDB round trips of each: every page, with items or without, a
 * cursor or not, is one Query and a read of the parent beside it (a payment's refunds show its status).
 */
export async function expectParentReadBesideEveryPage(reads: ChildListReads): Promise<void> {
  for (const read of [reads.firstPage, reads.secondPage, reads.emptyPage, reads.unknownParent]) {
    expect(await dynamoDbCommandsDuring(read)).toEqual(['QueryCommand', 'GetItemCommand']);
  }
}
