import { withDocumentClientMiddleware } from '../../test/support/dynamodb-commands';
import { startTestRuntime, type TestRuntime } from '../../test/support/local-runtime';
import { type SparseFilter, sparseFilterNames, sparseFilters } from '../../test/support/sparse-history';
import { routeInvocation } from '../local/gateway';
import type { BenchContext } from './bench-context';
import { type BenchRow, rowOf, Unit } from './bench-row';
import { runningUntilStopped } from './running-until-stopped';
import { median } from './statistics';

const section = 'filters';

/** The two histories each filter is measured under: the page must cost the same under both. */
export const filterHistories = { small: 1000, large: 20_000 } as const;

/**
 * Pages timed per filter and size, the two sizes' pages taking turns so both meet the same machine:
 * 60 of each, or as many as 10 s allow (3 at least), since a page that walks 20,000 items takes
 * seconds and its median is clear from a few, while one of a few milliseconds needs many.
 */
const timedPages = { most: 60, least: 3, withinMs: 10_000 } as const;

/** What one filtered page cost under one history. */
interface PageCost {
  readonly commands: number;
  readonly rru: number;
  readonly p50Ms: number;
  /** The page's status when it was not a 200 (a function that ran out of time answers 500). */
  readonly failed?: number;
}

/**
 * Section: every filter of the lists (docs/decisions/keys-for-every-filter.md), its one match the
 * oldest under 1,000 and then 20,000 newer items of its kind, each history a merchant of its own.
 * Per filter, the commands and read units of a page of 20 at 20,000 against those at 1,000 (budget:
 * equal) and the page's p50 (budget: ≤ 1.3×): a page whose work grows with the history misses all three.
 */
export async function filtersSection(context: BenchContext): Promise<BenchRow[]> {
  const t = await runningUntilStopped(context, startTestRuntime({}, { dynamodb: await context.dynamodb() }));
  try {
    const rows: BenchRow[] = [];
    for (const name of sparseFilterNames) {
      context.progress(`filters: ${name}`);
      const [small, large] = await pageCosts(t.value, name);
      const failed = [small, large].flatMap((cost, at) =>
        cost.failed === undefined ? [] : [`${at === 0 ? 'small' : 'large'} page answered ${cost.failed}`],
      );
      const note = [
        `${filterHistories.large.toLocaleString('en')} items against ${filterHistories.small.toLocaleString('en')}`,
        ...failed,
      ].join('; ');
      const figure = (what: string, value: number, baseline: number, unit: Unit, limit: number) =>
        rowOf({
          section,
          figure: `${name}: ${what}`,
          value,
          baseline,
          unit,
          budget: { ratio: 'most', limit },
          note,
        });
      rows.push(
        figure('commands', large.commands, small.commands, Unit.count, 1),
        figure('RRU', large.rru, small.rru, Unit.count, 1),
        figure('p50', large.p50Ms, small.p50Ms, Unit.ms, 1.3),
      );
    }
    return rows;
  } finally {
    await t.stop();
  }
}

/** One filter's page under one history: a merchant of its own, seeded, its page warmed and measured. */
interface SeededPage {
  readonly page: () => Promise<number>;
  readonly measured: { commands: number; rru: number };
  readonly firstMs: number;
  readonly status: number;
}

/** Seeds the filter's history for a new merchant, then measures one page of it. */
async function seededPage(t: TestRuntime, name: string, history: number): Promise<SeededPage> {
  const { merchantId, api } = await t.anotherMerchant();
  const filter = sparseFilters(merchantId, history)[name] as SparseFilter;
  const { path, query } = await filter.seed();
  const scope = path.startsWith('/merchants/') ? {} : { merchantId };
  const page = async () => (await api('GET', path, { query: { ...scope, ...query, limit: 20 } })).status;
  // A first page warms what every later one finds warm: the key in the authorizer's cache, the cursor key.
  await page();
  let status = 0;
  const first = performance.now();
  const measured = await readsDuring(async () => {
    status = await page();
  });
  return { page, measured, firstMs: performance.now() - first, status };
}

/**
 * Both histories of a filter seeded first, then their pages timed in turns (small, large, small, …),
 * so the machine's drift and DynamoDB Local's work after a seeding fall on both alike.
 */
async function pageCosts(t: TestRuntime, name: string): Promise<[PageCost, PageCost]> {
  const seeded = [
    await seededPage(t, name, filterHistories.small),
    await seededPage(t, name, filterHistories.large),
  ] as const;
  // A page that failed (out of time, most likely) is not timed again: its one run is the figure.
  if (seeded.some((one) => one.status !== 200)) {
    return seeded.map((one) => ({
      ...one.measured,
      p50Ms: one.firstMs,
      ...(one.status === 200 ? {} : { failed: one.status }),
    })) as [PageCost, PageCost];
  }
  const durations: [number[], number[]] = [[], []];
  const until = performance.now() + timedPages.withinMs;
  while (
    durations[0].length < timedPages.least ||
    (durations[0].length < timedPages.most && performance.now() < until)
  ) {
    for (const [at, one] of seeded.entries()) {
      const started = performance.now();
      await one.page();
      durations[at]?.push(performance.now() - started);
    }
  }
  return seeded.map((one, at) => ({ ...one.measured, p50Ms: median(durations[at] ?? []) })) as [
    PageCost,
    PageCost,
  ];
}

/**
 * The DynamoDB commands the route sends while `act` runs (not the authorizer's) and the read units
 * DynamoDB reports they consumed.
 */
async function readsDuring(act: () => Promise<void>): Promise<{ commands: number; rru: number }> {
  let commands = 0;
  let rru = 0;
  await withDocumentClientMiddleware(
    (next) => async (args) => {
      if (routeInvocation.getStore() === undefined) return next(args);
      commands += 1;
      const result = await next({ ...args, input: { ...args.input, ReturnConsumedCapacity: 'TOTAL' } });
      for (const capacity of [result.output.ConsumedCapacity ?? []].flat())
        rru += capacity.CapacityUnits ?? 0;
      return result;
    },
    act,
  );
  return { commands, rru };
}
