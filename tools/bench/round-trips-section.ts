import { writesTable } from '../../functions/route-definition';
import { type RouteName, routeList, routesOfStage } from '../../functions/routes';
import { startHttpsReceiver } from '../../test/support/https-receiver';
import { startTestRuntime } from '../../test/support/local-runtime';
import {
  measureRouteRoundTrips,
  roundTripRuntimeSettings,
  roundTrips,
  withinBudget,
} from '../../test/support/route-round-trips';
import type { BenchContext } from './bench-context';
import { type BenchRow, formatRatio } from './bench-row';
import { runningUntilStopped } from './running-until-stopped';

const section = 'round trips';

/**
 * Section 1: the DynamoDB commands of every route on its happy path with a warm authorizer cache,
 * against the budget of one read and one write for a route that changes state, one in all otherwise.
 */
export async function roundTripsSection(context: BenchContext): Promise<BenchRow[]> {
  const t = await runningUntilStopped(
    context,
    startTestRuntime(roundTripRuntimeSettings, { dynamodb: await context.dynamodb() }),
  );
  const receiver = await runningUntilStopped(context, startHttpsReceiver({ caDir: context.caDir }));
  try {
    const { measured } = await measureRouteRoundTrips(t.value, receiver.value);
    return routesOfStage(routeList, 'sandbox').map((route) => {
      const commands = measured.get(route.operationId as RouteName) ?? [];
      const { reads, writes } = roundTrips(commands);
      const mutating = writesTable(route);
      return {
        section,
        figure: route.operationId,
        value: mutating ? `${reads} r + ${writes} w` : String(reads + writes),
        baseline: mutating ? '1 r + 1 w' : '1',
        ratio: formatRatio((reads + writes) / (mutating ? 2 : 1)),
        budget: mutating ? '≤ 1 r, ≤ 1 w' : '≤ 1 in all',
        ok: withinBudget(route, commands),
        note: commands.map((command) => command.replace(/Command$/, '')).join(', ') || 'none',
      };
    });
  } finally {
    await receiver.stop();
    await t.stop();
  }
}
