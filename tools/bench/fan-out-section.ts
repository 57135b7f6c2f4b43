import { randomUUID } from 'node:crypto';
import { documentClient } from '../../functions/store/client';
import { type HttpsReceiver, startHttpsReceiver } from '../../test/support/https-receiver';
import { expectOk } from '../../test/support/invoice-requests';
import { newKey, startTestRuntime, type TestRuntime } from '../../test/support/local-runtime';
import { routeInvocation } from '../local/gateway';
import type { BenchContext } from './bench-context';
import { type BenchRow, rowOf, Unit } from './bench-row';
import { createPayoutEvent, eventToArrivalMs, subscribe } from './payout-events';
import { batchWriteItems, rawDeliveryCommands } from './raw-delivery-commands';
import { runningUntilStopped } from './running-until-stopped';
import { median } from './statistics';

const section = 'fan-out';
/** A merchant's most endpoints (docs/decisions/endpoint-management.md), each its own receiver. */
const endpointCount = 20;
const eventCount = 20;
/** Rounds of the 400 deliveries, alternating with as many of their raw writes. */
const rounds = 4;

/**
 * Section 5: one event to 20 endpoints, in the router's write round trips per 25 deliveries; 20
 * events to 20 endpoints, in the time until all 400 arrived against the DynamoDB commands that work
 * needs sent raw, in alternating rounds; and TLS handshakes per endpoint per dispatcher batch, counted at the
 * receivers over every round.
 */
export async function fanOutSection(context: BenchContext): Promise<BenchRow[]> {
  const batches: Set<string>[] = [];
  const t = await runningUntilStopped(
    context,
    startTestRuntime(
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, AUTH_CACHE_SECONDS: 3600 },
      {
        dynamodb: await context.dynamodb(),
        onDispatcherBatch: (event) => {
          batches.push(
            new Set(event.Records.map((record) => JSON.parse(record.body).webhookEndpointId as string)),
          );
        },
      },
    ),
  );
  const receivers: { stop: () => Promise<void>; value: HttpsReceiver }[] = [];
  try {
    for (let index = 0; index < endpointCount; index += 1) {
      receivers.push(await runningUntilStopped(context, startHttpsReceiver({ caDir: context.caDir })));
    }
    const { api, runtime } = t.value;
    const endpoints: string[] = [];
    for (const receiver of receivers) {
      endpoints.push((await subscribe(api, runtime.merchantId, receiver.value.url())).webhookEndpointId);
    }
    const bench: FanOut = { runtime: t.value, endpoints, receivers: receivers.map(({ value }) => value) };
    const routerWrites = await routerWritesOfOneEvent(context, bench);
    const before = bench.receivers.map((receiver) => receiver.tlsConnections);
    batches.length = 0;
    const { pipelineMs, rawMs } = await timedRounds(context, bench);
    const handshakes = bench.receivers.map(
      (receiver, index) => receiver.tlsConnections - (before[index] ?? 0),
    );
    const batchesWith = endpoints.map((id) => batches.filter((batch) => batch.has(id)).length);
    const perBatch = handshakes.map((count, index) => count / Math.max(1, batchesWith[index] ?? 0));
    return fanOutRows({
      routerWrites,
      pipelineMs,
      rawMs,
      worstHandshakes: Math.max(...perBatch),
      meanHandshakes: perBatch.reduce((sum, value) => sum + value, 0) / perBatch.length,
      batchCount: batches.length,
    });
  } finally {
    for (const receiver of receivers.reverse()) await receiver.stop();
    await t.stop();
  }
}

/** The runtime, the merchant's endpoints and the receiver behind each one, in the same order. */
interface FanOut {
  readonly runtime: TestRuntime;
  readonly endpoints: readonly string[];
  readonly receivers: readonly HttpsReceiver[];
}

function arrivedAt({ receivers }: FanOut): number {
  return receivers.reduce((sum, receiver) => sum + receiver.requests.length, 0);
}

async function setEndpointStatus(
  { runtime, endpoints }: FanOut,
  status: 'active' | 'disabled',
): Promise<void> {
  for (const id of endpoints) {
    expectOk(
      await runtime.api('PATCH', `/merchants/${runtime.runtime.merchantId}/webhook-endpoints/${id}`, {
        body: { status },
        idempotencyKey: newKey(),
      }),
    );
  }
}

/**
 * With every endpoint disabled the deliveries are written paused and never sent, so every write
 * outside a route until the stream is drained is the router's fan-out.
 */
async function routerWritesOfOneEvent(context: BenchContext, bench: FanOut): Promise<string[]> {
  const { api, runtime } = bench.runtime;
  context.progress('fan-out: one event to 20 endpoints, counting the router’s writes');
  await setEndpointStatus(bench, 'disabled');
  await runtime.drainStream();
  const routerWrites = await pipelineWritesDuring(async () => {
    await createPayoutEvent(api, runtime.merchantId);
    await runtime.drainStream();
    await runtime.drainStream();
  });
  await setEndpointStatus(bench, 'active');
  await waitUntil(() => arrivedAt(bench) >= endpointCount, 'the paused deliveries to arrive');
  return routerWrites;
}

/** From the first event created to the last delivery received, for 20 events to every endpoint. */
async function deliverAll(bench: FanOut): Promise<number> {
  const { api, runtime } = bench.runtime;
  const requestsBefore = bench.receivers.map((receiver) => receiver.requests.length);
  const arrivedBefore = arrivedAt(bench);
  await Promise.all(Array.from({ length: eventCount }, () => createPayoutEvent(api, runtime.merchantId)));
  await waitUntil(() => arrivedAt(bench) >= arrivedBefore + eventCount * endpointCount, 'all 400 deliveries');
  const fresh = bench.receivers.flatMap((receiver, index) => receiver.requests.slice(requestsBefore[index]));
  const createdAt = Math.min(...fresh.map((request) => request.receivedAt - eventToArrivalMs(request)));
  return Math.max(...fresh.map((request) => request.receivedAt)) - createdAt;
}

/** The pipeline and its raw writes in alternating rounds, so the machine's load falls on both. */
async function timedRounds(
  context: BenchContext,
  bench: FanOut,
): Promise<{ pipelineMs: number[]; rawMs: number[] }> {
  const pipelineMs: number[] = [];
  const rawMs: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    context.progress(
      `fan-out: round ${round + 1} of ${rounds}, 20 events to 20 endpoints and their raw writes`,
    );
    const raw = async () => {
      rawMs.push(
        await rawDeliveryCommands({ events: eventCount, endpointsPerEvent: endpointCount, routed: true }),
      );
    };
    const pipeline = async () => {
      pipelineMs.push(await deliverAll(bench));
    };
    for (const side of round % 2 === 0 ? [pipeline, raw] : [raw, pipeline]) await side();
  }
  return { pipelineMs, rawMs };
}

function fanOutRows(figures: {
  readonly routerWrites: readonly string[];
  readonly pipelineMs: readonly number[];
  readonly rawMs: readonly number[];
  readonly worstHandshakes: number;
  readonly meanHandshakes: number;
  readonly batchCount: number;
}): BenchRow[] {
  const { routerWrites } = figures;
  return [
    rowOf({
      section,
      figure: 'router write round trips, one event to 20 endpoints',
      value: routerWrites.length,
      // The budget allows one round trip for every 25 deliveries begun: one for 20.
      baseline: Math.ceil(endpointCount / batchWriteItems),
      unit: Unit.count,
      budget: { ratio: 'most', limit: 1 },
      note: `${routerWrites.length} writes for ${endpointCount} deliveries (${summarize(routerWrites)}); baseline: one per 25 deliveries, as BatchWriteItem takes`,
    }),
    rowOf({
      section,
      figure: '20 events × 20 endpoints, all delivered',
      value: median(figures.pipelineMs),
      baseline: median(figures.rawMs),
      unit: Unit.ms,
      budget: { ratio: 'most', limit: 1.2 },
      note: `median of ${rounds} rounds; baseline: the design's commands sent raw (per event a Query and a TransactWriteItems, per delivery a GetItem, an UpdateItem and a PutItem, 10 at a time), in alternating rounds`,
    }),
    rowOf({
      section,
      figure: 'TLS handshakes per endpoint per dispatcher batch',
      value: figures.worstHandshakes,
      baseline: 1,
      unit: Unit.count,
      budget: { ratio: 'most', limit: 1 },
      note: `worst endpoint; mean ${figures.meanHandshakes.toFixed(2)}, ${figures.batchCount} batches`,
    }),
  ];
}

/** The write commands sent outside any route while `act` runs: the delivery pipeline's. */
async function pipelineWritesDuring(act: () => Promise<void>): Promise<string[]> {
  const writes: string[] = [];
  const client = documentClient();
  const name = `count-pipeline-writes-${randomUUID()}`;
  const writeCommands = /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems)Command$/;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      if (routeInvocation.getStore() === undefined && writeCommands.test(command)) writes.push(command);
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await act();
  } finally {
    client.middlewareStack.remove(name);
  }
  return writes;
}

function summarize(commands: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const command of commands) counts.set(command, (counts.get(command) ?? 0) + 1);
  return [...counts].map(([command, count]) => `${count} ${command.replace(/Command$/, '')}`).join(', ');
}

async function waitUntil(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`fan-out: gave up waiting for ${what} after 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
