import { randomUUID } from 'node:crypto';
import type { Stage } from '../../functions/config';
import { DeliveryStatus } from '../../functions/domain/webhook-delivery';
import { EntityType } from '../../functions/store/keys';
import { toDelivery } from '../../functions/store/webhook-deliveries';
import { startHttpsReceiver } from '../../test/support/https-receiver';
import { expectOk, invoiceBody } from '../../test/support/invoice-requests';
import { invoiceFixtures } from '../../test/support/invoices';
import { type ApiClient, apiClient, newKey, startTestRuntime } from '../../test/support/local-runtime';
import { createKey, createMerchant } from '../admin/operations';
import type { BenchContext } from '../bench/bench-context';
import { loadAtConcurrency } from '../bench/load';
import { subscribe } from '../bench/payout-events';
import { runningUntilStopped } from '../bench/running-until-stopped';
import { deliveryFigures } from './delivery-figures';
import { flakyResponder } from './flaky-responder';
import { type AcknowledgedCreate, invoiceLoad, type LoadMerchant } from './invoice-load';
import { numberingGaps } from './invoice-numbering';
import type { SoakFindings } from './soak-findings';

export interface SoakPlan {
  readonly durationSeconds: number;
  /** Sandbox payouts to create during the load, each emitting one event to the receiver. */
  readonly eventCount: number;
  /** The most to wait after the load for every delivery to be final. */
  readonly settleTimeoutSeconds: number;
}

export type SoakContext = Pick<BenchContext, 'dynamodb' | 'caDir' | 'progress' | 'onStop'>;

/** The load (docs/decisions/the-load-test.md): 8 connections, and a receiver failing 30 % of requests. */
export const SoakConnections = 8;
export const ReceiverFailureRate = 0.3;
/** Invoice creates interleave on each merchant's number counter; two merchants keep that contended. */
const merchantCount = 2;
/** Payouts are created alongside the API load, a few at a time, so events arrive throughout it. */
const eventConcurrency = 2;
// A retry after one second instead of sixty, so a delivery runs through all 5 attempts in seconds.
const retryDelaySeconds = 1;
const settlePollMs = 1_000;

/**
 * Runs the load test against a local runtime on the context's DynamoDB Local and an HTTPS receiver
 * that fails at random, then reads the table and the receiver and returns what they show.
 */
export async function runSoak(plan: SoakPlan, context: SoakContext): Promise<SoakFindings> {
  const t = await runningUntilStopped(
    context,
    startTestRuntime(
      {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
        WEBHOOK_RETRY_DELAY_SECONDS: retryDelaySeconds,
        AUTH_CACHE_SECONDS: 3600,
      },
      { dynamodb: await context.dynamodb() },
    ),
  );
  const responder = flakyResponder(ReceiverFailureRate);
  const receiver = await runningUntilStopped(
    context,
    startHttpsReceiver({ caDir: context.caDir, respondWith: responder.respond }),
  );
  try {
    const { runtime, api } = t.value;
    context.progress(`${merchantCount} merchants with a customer, a product and a price each`);
    const merchants = await loadMerchants(runtime.baseUrl, runtime.stage, {
      merchantId: runtime.merchantId,
      apiKey: runtime.apiKey,
    });
    const { signingSecret } = await subscribe(api, runtime.merchantId, receiver.value.url());
    await warmRoutes(merchants[0] as LoadMerchant, runtime.baseUrl);

    context.progress(
      `${plan.durationSeconds} s of invoice creates, gets and lists on ${SoakConnections} connections; ${plan.eventCount} events`,
    );
    let stopped = false;
    const [load, eventsCreated] = await Promise.all([
      invoiceLoad({
        baseUrl: runtime.baseUrl,
        merchants,
        connections: SoakConnections,
        durationSeconds: plan.durationSeconds,
        onStart: (stop) =>
          context.onStop(async () => {
            stopped = true;
            stop();
          }),
      }),
      createEvents(api, runtime.merchantId, plan.eventCount, () => stopped),
    ]);

    context.progress(`reading back ${load.creates.length} acknowledged creates`);
    const readBack = await readBackCount(load.creates, merchants, runtime.baseUrl);

    context.progress(`waiting up to ${plan.settleTimeoutSeconds} s for every delivery to be final`);
    const settleStarted = performance.now();
    const items = await settledTable(t.value.scanTable, eventsCreated, plan.settleTimeoutSeconds * 1_000);
    const settleSeconds = Math.round((performance.now() - settleStarted) / 1_000);

    const { creates, ...loadFigures } = load;
    return {
      durationSeconds: plan.durationSeconds,
      connections: SoakConnections,
      load: loadFigures,
      acknowledged: creates.length,
      readBack,
      numbering: invoiceNumbering(merchants, items),
      eventsCreated,
      eventsAsked: plan.eventCount,
      deliveries: deliveryFigures({
        deliveries: items.filter((item) => item.entityType === EntityType.webhookDelivery).map(toDelivery),
        answered: responder.answered,
        signingSecret,
      }),
      settleSeconds,
    };
  } finally {
    await receiver.stop();
    await t.stop();
  }
}

/** Each merchant's invoices in the table, and the gaps in their numbers. */
function invoiceNumbering(merchants: readonly LoadMerchant[], items: readonly Record<string, unknown>[]) {
  return merchants.map(({ merchantId }) => {
    const numbers = items
      .filter((item) => item.entityType === EntityType.invoice && item.merchantId === merchantId)
      .map((item) => String(item.invoiceNumber));
    return { invoices: numbers.length, ...numberingGaps(numbers) };
  });
}

/** The runtime's own merchant and more, each with a key and what an invoice create names. */
async function loadMerchants(
  baseUrl: string,
  stage: Stage,
  first: { merchantId: string; apiKey: string },
): Promise<LoadMerchant[]> {
  const keyed = [first];
  while (keyed.length < merchantCount) {
    const merchant = await createMerchant(`Soak merchant ${keyed.length + 1}`);
    const key = await createKey(merchant.merchantId, stage);
    keyed.push({ merchantId: merchant.merchantId, apiKey: key.apiKey });
  }
  return Promise.all(
    keyed.map(async ({ merchantId, apiKey }) => {
      const refs = await invoiceFixtures(apiClient(baseUrl, apiKey), merchantId);
      return { merchantId, apiKey, createBody: invoiceBody(merchantId, refs) };
    }),
  );
}

/**
 * One create, get and list before the load: the local gateway loads a handler on its first request,
 * as a Lambda cold start, which would otherwise hold the first seconds of the load.
 */
async function warmRoutes(merchant: LoadMerchant, baseUrl: string): Promise<void> {
  const api = apiClient(baseUrl, merchant.apiKey);
  const query = { merchantId: merchant.merchantId };
  const created = expectOk(
    await api('POST', '/invoices', { body: merchant.createBody, idempotencyKey: newKey() }),
  );
  expectOk(await api('GET', `/invoices/${created.invoiceId}`, { query }));
  expectOk(await api('GET', '/invoices', { query }));
}

/** Creates sandbox payouts, each emitting one `payouts.PayoutCreated`; returns how many were created. */
async function createEvents(
  api: ApiClient,
  merchantId: string,
  count: number,
  stopped: () => boolean,
): Promise<number> {
  let created = 0;
  await loadAtConcurrency(count, eventConcurrency, async () => {
    if (stopped()) return;
    const result = await api('POST', '/sandbox/payouts', {
      body: { merchantId, amount: 10_000, currency: 'USD' },
      idempotencyKey: `soak-${randomUUID()}`,
    });
    if (result.status === 201) created += 1;
  });
  return created;
}

/** How many acknowledged creates a GET returns with the number the create answered. */
async function readBackCount(
  creates: readonly AcknowledgedCreate[],
  merchants: readonly LoadMerchant[],
  baseUrl: string,
): Promise<number> {
  const apis = new Map(
    merchants.map((merchant) => [merchant.merchantId, apiClient(baseUrl, merchant.apiKey)]),
  );
  let readable = 0;
  await loadAtConcurrency(creates.length, SoakConnections, async (index) => {
    const create = creates[index] as AcknowledgedCreate;
    const api = apis.get(create.merchantId) as ApiClient;
    const result = await api('GET', `/invoices/${create.invoiceId}`, {
      query: { merchantId: create.merchantId },
    });
    if (result.status === 200 && result.body.invoiceNumber === create.invoiceNumber) readable += 1;
  });
  return readable;
}

/**
 * The table once every event's delivery exists and none is pending, or as it is when `timeoutMs`
 * runs out: the checks then report what is still pending instead of waiting forever.
 */
async function settledTable(
  scanTable: () => Promise<Record<string, unknown>[]>,
  expectedDeliveries: number,
  timeoutMs: number,
): Promise<Record<string, unknown>[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const items = await scanTable();
    const deliveries = items.filter((item) => item.entityType === EntityType.webhookDelivery);
    const settled =
      deliveries.length >= expectedDeliveries &&
      deliveries.every((item) => item.status !== DeliveryStatus.pending);
    if (settled || performance.now() >= deadline) return items;
    await new Promise((resolve) => setTimeout(resolve, settlePollMs));
  }
}
