import { startHttpsReceiver } from '../../test/support/https-receiver';
import { startTestRuntime } from '../../test/support/local-runtime';
import type { BenchContext } from './bench-context';
import { type BenchRow, NoBudget, rowOf, Unit } from './bench-row';
import { createPayoutEvent, eventToArrivalMs, subscribe } from './payout-events';
import { runningUntilStopped } from './running-until-stopped';
import { percentile } from './statistics';
import { startStreamProbe } from './stream-probe';

const section = 'events';
const eventCount = 200;
const rounds = 4;
/**
 * The event's way against the same way with nothing between its parts (the bare pipeline: two
 * hops and the design's commands sent raw): what the router's and the dispatcher's logic, the queue,
 * the signing and the POST add may be half of that (docs/performance.md#the-other-budgets).
 */
const p50Budget = { ratio: 'most', limit: 1.5 } as const;

/**
 * Section 4: event creation → arrival at a real HTTPS receiver, over 200 events created one after
 * another, against probes written in the same rounds (one after each event or before it) and read
 * through the same stream poller: the bare pipeline (the probe's two hops and the design's commands
 * sent raw), and one stream hop, a write's own record reaching a bare consumer.
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
    // One probe beside each event, before it in half the rounds and after it in the others, so
    // both reach the stream at the same pace and the machine's load falls on both alike.
    const perRound = eventCount / rounds;
    for (let round = 0; round < rounds; round += 1) {
      for (let index = 0; index < perRound; index += 1) {
        const event = () => createPayoutEvent(api, runtime.merchantId);
        const write = () => probe.value.write();
        for (const side of round % 2 === 0 ? [event, write] : [write, event]) await side();
      }
    }
    const received = await receiver.value.waitFor(eventCount, 60_000);
    const latencies = received.map(eventToArrivalMs);
    await waitForProbes(probe.value.pipelineMs, eventCount);
    const { hopMs, pipelineMs } = probe.value;
    const bare = `baseline: the bare pipeline, the probes' two hops and the design's commands sent raw (${pipelineMs.length} probes)`;
    return [
      rowOf({
        section,
        figure: 'event → receiver p50',
        value: percentile(latencies, 50),
        baseline: percentile(pipelineMs, 50),
        unit: Unit.ms,
        budget: p50Budget,
        note: bare,
      }),
      rowOf({
        section,
        figure: 'event → receiver p99',
        value: percentile(latencies, 99),
        baseline: percentile(pipelineMs, 99),
        unit: Unit.ms,
        budget: NoBudget,
        note: bare,
      }),
      rowOf({
        section,
        figure: 'event → receiver p50, against one hop',
        value: percentile(latencies, 50),
        baseline: percentile(hopMs, 50),
        unit: Unit.ms,
        budget: NoBudget,
        note: `for scale; baseline: a write's own record at a bare consumer, same poller (${hopMs.length} writes)`,
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
