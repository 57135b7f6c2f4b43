import { describe, expect, it } from 'vitest';
import { e2eFile, merchantId, t } from '../support/e2e-test';
import { dynamoDbCommandsDuring } from '../support/local-runtime';
import { type SparseFilter, sparseFilterNames, sparseFilters } from '../support/sparse-history';

/*
 * What a filtered list page costs when its one match is the oldest of 2,000 items of its kind
 * (docs/decisions/lists-and-cursors.md): the page must be found in bounded work, at most 2 DynamoDB
 * commands, however long the history it sits under. The filters the keys cannot serve yet are named
 * in `overBudget` with why, and checked to stay over, so the list shrinks as the keys are designed.
 */

e2eFile();

const history = 2000;
const budget = 2;

/** The filters whose page still walks the history, and why the keys cannot serve them yet. */
const overBudget: Partial<Record<string, string>> = {
  'invoices by customer and status':
    "reads the customer's index (GSI2) and filters on status: no key carries both",
  'payments by status': "reads the merchant's payments by id and filters on status: no key carries it",
  'payments by customer': "reads the merchant's payments by id and filters on customer: no index by customer",
  'events by object and type': "reads the object's events (GSI4) and filters on type: no key carries both",
  'deliveries by status':
    "reads the endpoint's deliveries by id and filters on status: no key carries it, which changes",
};

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
  const budgeted = sparseFilterNames.filter((name) => !(name in overBudget));
  it.each(budgeted)(
    `%s: at most ${budget} DynamoDB commands`,
    async (name) => {
      const commands = await commandsOfSparsePage(name);
      expect(commands.length, commands.join(', ')).toBeLessThanOrEqual(budget);
    },
    60_000,
  );

  it.each(Object.keys(overBudget))(
    '%s: over budget, as its reason says',
    async (name) => {
      const commands = await commandsOfSparsePage(name);
      expect(commands.length, commands.join(', ')).toBeGreaterThan(budget);
    },
    60_000,
  );
});
