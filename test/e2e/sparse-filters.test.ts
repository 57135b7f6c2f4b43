import { describe, expect, it } from 'vitest';
import { e2eFile, merchantId, t } from '../support/e2e-test';
import { dynamoDbCommandsDuring } from '../support/local-runtime';
import { type SparseFilter, sparseFilterNames, sparseFilters } from '../support/sparse-history';

/*
 * What a filtered list page costs when its one match is the oldest of 2,000 items of its kind
 * (docs/decisions/lists-and-cursors.md): the page must be found in bounded work, at most 2 DynamoDB
 * commands, however long the history it sits under (docs/decisions/keys-for-every-filter.md).
 */

e2eFile();

const history = 2000;
const budget = 2;

/** The DynamoDB commands of a page of 20 of the filter, after checking it finds its one match. */
async function commandsOfSparsePage(name: string): Promise<string[]> {
  const filter = sparseFilters(merchantId, history)[name] as SparseFilter;
  const { path, query, matchId } = await filter.seed();
  const extra = path.startsWith('/merchants/') ? {} : { merchantId };
  const commands = await dynamoDbCommandsDuring(async () => {
    const page = await t.api('GET', path, { query: { ...extra, ...query, limit: 20 } });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.items.map(filter.idOf)).toContain(matchId);
  });
  return commands;
}

describe(`a filtered page whose one match is the oldest of ${history} items`, () => {
  it.each(sparseFilterNames)(
    `%s: at most ${budget} DynamoDB commands`,
    async (name) => {
      const commands = await commandsOfSparsePage(name);
      expect(commands.length, commands.join(', ')).toBeLessThanOrEqual(budget);
    },
    60_000,
  );
});
