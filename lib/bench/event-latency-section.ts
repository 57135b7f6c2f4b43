import { startHttpsReceiver } from '../../test/support/https-receiver';
import { startTestRuntime } from '../../test/support/local-runtime';
import type { BenchContext } from './bench-context';
import { type BenchRow, NoBudget, rowOf, Unit } from './bench-row';
import { alternatingLoads } from './load';
import { createPayoutEvent, eventToArrivalMs, subscribe } from './payout-events';
import { runningUntilStopped } from './running-until-stopped';
import { percentile } from './statistics';
import { startStreamProbe } from './stream-probe';

const section = 'events';
const eventCount = 200;
const rounds = 4;
/**
 * An event reaches the receiver after two stream hops (the event, then its delivery item), each
 * like the baseline's one hop, and the work between and after them (the router's read and
 * transaction, the queue, the dispatcher's read, lease, POST and record) may cost one hop more
 * (docs/performance.md#the-other-budgets).
 */
const p50Budget = { ratio: 'most', limit: 3 } as const;

/**
 * Section 4: event creation → arrival at a real HTTPS receiver, over 200 events created one after
 * another, against one stream hop measured in the same rounds: a write's own record reaching a
 * bare consumer through the same stream poller, one write after each event or before it.
 */
export async function eventLatencySection(context: BenchContext): Promise<BenchRow[]> {
  const dynamodb = await context.dynamodb();
  const t = await runningUntilStopped(
    context,
    startTestRuntime({ WEBHOOK_ALLOW_PRIVATE_TARGETS: true, AUTH_CACHE_SECONDS: 3600 }, { dynamodb }),
  );
  const receiver = await runningUntilStopped(context, startHttpsReceiver({ caDir: context.caDir }));
  const probe = await runningUntilStopped(
    context,
    startStreamProbe({ dynamodb, tableName: t.value.runtime.tableName }),
  );
  try {
    const { api, runtime } = t.value;
    await subscribe(api, runtime.merchantId, receiver.value.url());
    context.progress(`events: ${eventCount} events and ${eventCount} probe writes, one at a time`);
    await alternatingLoads(
      { count: eventCount, rounds, concurrency: 1 },
      () => createPayoutEvent(api, runtime.merchantId),
      () => probe.value.write(),
    );
    const received = await receiver.value.waitFor(eventCount, 60_000);
    const latencies = received.map(eventToArrivalMs);
    await waitForProbes(probe.value.latenciesMs, eventCount);
    const hops = probe.value.latenciesMs;
    const note = `baseline: a write's own record at a bare consumer, same poller (${hops.length} writes)`;
    return [
      rowOf({
        section,
        figure: 'event → receiver p50',
        value: percentile(latencies, 50),
        baseline: percentile(hops, 50),
        unit: Unit.ms,
        budget: p50Budget,
        note,
      }),
      rowOf({
        section,
        figure: 'event → receiver p99',
        value: percentile(latencies, 99),
        baseline: percentile(hops, 99),
        unit: Unit.ms,
        budget: NoBudget,
        note,
      }),
    ];
  } finally {
    await probe.stop();
    await receiver.stop();
    await t.stop();
  }
}

async function waitForProbes(latencies: readonly number[], count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (latencies.length < count) {
    if (Date.now() > deadline)
      throw new Error(`events: ${latencies.length} of ${count} probe records arrived`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
