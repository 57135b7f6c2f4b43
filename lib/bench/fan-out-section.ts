import { randomUUID } from 'node:crypto';
import { documentClient } from '../../functions/store/client';
import { type HttpsReceiver, startHttpsReceiver } from '../../test/support/https-receiver';
import { expectOk } from '../../test/support/invoice-requests';
import { newKey, startTestRuntime } from '../../test/support/local-runtime';
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
    const merchantId = runtime.merchantId;
    const endpoints: string[] = [];
    for (const receiver of receivers) {
      endpoints.push((await subscribe(api, merchantId, receiver.value.url())).webhookEndpointId);
    }
    const setStatus = async (status: 'active' | 'disabled') => {
      for (const id of endpoints) {
        expectOk(
          await api('PATCH', `/merchants/${merchantId}/webhook-endpoints/${id}`, {
            body: { status },
            idempotencyKey: newKey(),
          }),
        );
      }
    };
    const arrived = () => receivers.reduce((sum, receiver) => sum + receiver.value.requests.length, 0);

    // With every endpoint disabled the deliveries are written paused and never sent, so every
    // write outside a route until the stream is drained is the router's fan-out.
    context.progress('fan-out: one event to 20 endpoints, counting the router’s writes');
    await setStatus('disabled');
    await t.value.runtime.drainStream();
    const routerWrites = await pipelineWritesDuring(async () => {
      await createPayoutEvent(api, merchantId);
      await t.value.runtime.drainStream();
      await t.value.runtime.drainStream();
    });
    await setStatus('active');
    await waitUntil(() => arrived() >= endpointCount, 'the paused deliveries to arrive');

    const before = receivers.map((receiver) => receiver.value.tlsConnections);
    batches.length = 0;
    const deliverAll = async () => {
      const requestsBefore = receivers.map((receiver) => receiver.value.requests.length);
      const arrivedBefore = arrived();
      await Promise.all(Array.from({ length: eventCount }, () => createPayoutEvent(api, merchantId)));
      await waitUntil(() => arrived() >= arrivedBefore + eventCount * endpointCount, 'all 400 deliveries');
      const fresh = receivers.flatMap((receiver, index) =>
        receiver.value.requests.slice(requestsBefore[index]),
      );
      const createdAt = Math.min(...fresh.map((request) => request.receivedAt - eventToArrivalMs(request)));
      return Math.max(...fresh.map((request) => request.receivedAt)) - createdAt;
    };
    // The pipeline and its raw writes in alternating rounds, so the machine's load falls on both.
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
        pipelineMs.push(await deliverAll());
      };
      for (const side of round % 2 === 0 ? [pipeline, raw] : [raw, pipeline]) await side();
    }

    const handshakes = receivers.map(
      (receiver, index) => receiver.value.tlsConnections - (before[index] ?? 0),
    );
    const batchesWith = endpoints.map((id) => batches.filter((batch) => batch.has(id)).length);
    const perBatch = handshakes.map((count, index) => count / Math.max(1, batchesWith[index] ?? 0));
    const worst = Math.max(...perBatch);
    const meanPerBatch = perBatch.reduce((sum, value) => sum + value, 0) / perBatch.length;

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
        value: median(pipelineMs),
        baseline: median(rawMs),
        unit: Unit.ms,
        budget: { ratio: 'most', limit: 1.2 },
        note: `median of ${rounds} rounds; baseline: the design's commands sent raw (per event a Query and a TransactWriteItems, per delivery a GetItem, an UpdateItem and a PutItem, 10 at a time), in alternating rounds`,
      }),
      rowOf({
        section,
        figure: 'TLS handshakes per endpoint per dispatcher batch',
        value: worst,
        baseline: 1,
        unit: Unit.count,
        budget: { ratio: 'most', limit: 1 },
        note: `worst endpoint; mean ${meanPerBatch.toFixed(2)}, ${batches.length} batches`,
      }),
    ];
  } finally {
    for (const receiver of receivers.reverse()) await receiver.stop();
    await t.stop();
  }
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
