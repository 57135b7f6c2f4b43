/** One page of a list: its items and whether more follow (docs/openapi.json, every list route). */
export interface Page<Item> {
  items: Item[];
  page: { hasMore: boolean; nextCursor?: string };
}

/**
 * A list call. Iterate it to walk every item of every page, newest first, following `nextCursor`
 * (`for await (const invoice of client.invoices.list())`); `page()` fetches one page, and `pages()`
 * walks them page by page. Nothing is fetched until one of those starts.
 */
export class List<Item> implements AsyncIterable<Item> {
  readonly #fetchPage: (cursor: string | undefined) => Promise<Page<Item>>;
  readonly #cursor: string | undefined;

  constructor(fetchPage: (cursor: string | undefined) => Promise<Page<Item>>, cursor?: string) {
    this.#fetchPage = fetchPage;
    this.#cursor = cursor;
  }

  /** The first page, or the page at `cursor` (a `nextCursor` of an earlier page). */
  page(cursor: string | undefined = this.#cursor): Promise<Page<Item>> {
    return this.#fetchPage(cursor);
  }

  async *pages(): AsyncGenerator<Page<Item>, void, undefined> {
    let cursor = this.#cursor;
    for (;;) {
      const page = await this.#fetchPage(cursor);
      yield page;
      if (!page.page.hasMore || page.page.nextCursor === undefined) return;
      cursor = page.page.nextCursor;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every item of every page, in one array: for lists you know to be short. */
  async toArray(): Promise<Item[]> {
    const items: Item[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
