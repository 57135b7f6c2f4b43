import { startHttpsReceiver } from '../../test/support/https-receiver';
import { startTestRuntime } from '../../test/support/local-runtime';
import { DefaultPollIntervalMs } from '../local/stream-poller';
import type { BenchContext } from './bench-context';
import { type BenchRow, NoBudget, rowOf, Unit } from './bench-row';
import { createPayoutEvent, eventToArrivalMs, subscribe } from './payout-events';
import { runningUntilStopped } from './running-until-stopped';
import { percentile } from './statistics';

const section = 'events';
const eventCount = 200;
/**
 * An event reaches the receiver after two stream hops (the event, then its delivery item), each
 * waiting half a poll interval on average; twice the interval leaves the same again for the work.
 */
const p50Budget = { ratio: 'most', limit: 2 } as const;

/**
 * Section 4: event creation → arrival at a real HTTPS receiver, over 200 events created one after
 * another, beside the stream poll interval of the local runtime.
 */
export async function eventLatencySection(context: BenchContext): Promise<BenchRow[]> {
  const t = await runningUntilStopped(
    context,
    startTestRuntime(
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, AUTH_CACHE_SECONDS: 3600 },
      { dynamodbEndpoint: await context.dynamodbEndpoint() },
    ),
  );
  const receiver = await runningUntilStopped(context, startHttpsReceiver({ caDir: context.caDir }));
  try {
    const { api, runtime } = t.value;
    await subscribe(api, runtime.merchantId, receiver.value.url());
    context.progress(`events: ${eventCount} events, one at a time`);
    for (let index = 0; index < eventCount; index += 1) await createPayoutEvent(api, runtime.merchantId);
    const received = await receiver.value.waitFor(eventCount, 60_000);
    const latencies = received.map(eventToArrivalMs);
    const note = `stream poll interval ${DefaultPollIntervalMs} ms`;
    return [
      rowOf({
        section,
        figure: 'event → receiver p50',
        value: percentile(latencies, 50),
        baseline: DefaultPollIntervalMs,
        unit: Unit.ms,
        budget: p50Budget,
        note,
      }),
      rowOf({
        section,
        figure: 'event → receiver p99',
        value: percentile(latencies, 99),
        baseline: DefaultPollIntervalMs,
        unit: Unit.ms,
        budget: NoBudget,
        note,
      }),
    ];
  } finally {
    await receiver.stop();
    await t.stop();
  }
}
