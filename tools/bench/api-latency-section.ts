import { randomBytes } from 'node:crypto';
import { typeid } from 'typeid-js';
import { EntityType } from '../../functions/store/keys';
import { createInvoice, expectOk, invoiceBody } from '../../test/support/invoice-requests';
import { invoiceFixtures } from '../../test/support/invoices';
import { type ApiResult, newKey, startTestRuntime } from '../../test/support/local-runtime';
import type { BenchContext } from './bench-context';
import { type BenchRow, NoBudget, rowOf, Unit } from './bench-row';
import { type CapturedCommand, capturedCommandsDuring, sendCaptured } from './captured-commands';
import { keepAliveClient } from './keep-alive-client';
import { alternatingLoads, type LoadResult } from './load';
import { runningUntilStopped } from './running-until-stopped';
import { percentile } from './statistics';

const section = 'api';
/** Requests per route, and as many raw command sequences. */
const requestsPerLoad = 400;
const concurrency = 8;
const rounds = 4;
const p50Budget = { ratio: 'most', limit: 1.5 } as const;

interface MeasuredRoute {
  readonly name: string;
  readonly call: () => Promise<ApiResult>;
  /** The route's commands again with what must be new each time made new (ids, idempotency record). */
  readonly raw: (commands: readonly CapturedCommand[]) => readonly CapturedCommand[];
}

/**
 * Section 3: requests through the local gateway at 8 concurrent connections against a loop that
 * sends the DynamoDB commands the same route sent, on the same DynamoDB Local, in alternating rounds.
 */
export async function apiLatencySection(context: BenchContext): Promise<BenchRow[]> {
  const t = await runningUntilStopped(
    context,
    startTestRuntime({ AUTH_CACHE_SECONDS: 3600 }, { dynamodb: await context.dynamodb() }),
  );
  try {
    const { api, runtime } = t.value;
    const merchantId = runtime.merchantId;
    const refs = await invoiceFixtures(api, merchantId);
    for (let index = 0; index < 25; index += 1)
      expectOk(await createInvoice(api, invoiceBody(merchantId, refs)));
    const product = expectOk(
      await api('POST', '/catalog/products', {
        body: { merchantId, name: 'Bench tea' },
        idempotencyKey: newKey(),
      }),
    );
    const load = keepAliveClient(runtime.baseUrl, runtime.apiKey, concurrency);
    const routes: MeasuredRoute[] = [
      {
        name: 'getProduct',
        call: () => load('GET', `/catalog/products/${product.productId}`, { query: { merchantId } }),
        raw: (commands) => commands,
      },
      {
        name: 'listInvoices',
        call: () => load('GET', '/invoices', { query: { merchantId } }),
        raw: (commands) => commands,
      },
      {
        name: 'createProduct',
        call: () =>
          load('POST', '/catalog/products', {
            body: { merchantId, name: 'Bench tea' },
            idempotencyKey: newKey(),
          }),
        raw: (commands) => commands.map(withNewProduct),
      },
    ];

    const rows: BenchRow[] = [];
    for (const route of routes) {
      context.progress(
        `api: ${route.name}, ${requestsPerLoad} requests and ${requestsPerLoad} raw sequences`,
      );
      let captured: CapturedCommand[] = [];
      // The first call also warms the authorizer cache and the handler's module.
      expectOk(await route.call());
      captured = await capturedCommandsDuring(async () => {
        expectOk(await route.call());
      });
      const [viaApi, raw] = await alternatingLoads(
        { count: requestsPerLoad, rounds, concurrency },
        async () => {
          expectOk(await route.call());
        },
        async () => {
          for (const command of route.raw(captured)) await sendCaptured(command);
        },
      );
      rows.push(...latencyRows(route.name, viaApi, raw, captured));
    }
    return rows;
  } finally {
    await t.stop();
  }
}

function latencyRows(
  name: string,
  viaApi: LoadResult,
  raw: LoadResult,
  captured: readonly CapturedCommand[],
): BenchRow[] {
  const note = `raw: ${captured.map((command) => command.name.replace(/Command$/, '')).join(', ')}`;
  return [
    rowOf({
      section,
      figure: `${name} p50`,
      value: percentile(viaApi.latenciesMs, 50),
      baseline: percentile(raw.latenciesMs, 50),
      unit: Unit.ms,
      budget: p50Budget,
      note,
    }),
    rowOf({
      section,
      figure: `${name} p99`,
      value: percentile(viaApi.latenciesMs, 99),
      baseline: percentile(raw.latenciesMs, 99),
      unit: Unit.ms,
      budget: NoBudget,
    }),
    rowOf({
      section,
      figure: `${name} requests/s`,
      value: (viaApi.count / viaApi.wallMs) * 1000,
      baseline: (raw.count / raw.wallMs) * 1000,
      unit: Unit.perSecond,
      budget: NoBudget,
    }),
  ];
}

/**
 * A create's transaction again for a product that does not exist yet: the product id and the
 * idempotency record's key are replaced by new ones of the same shape, everything else is as sent.
 */
function withNewProduct(command: CapturedCommand): CapturedCommand {
  let text = JSON.stringify(command.input);
  const items = (command.input.TransactItems ?? []) as { Put?: { Item?: Record<string, unknown> } }[];
  for (const { Put } of items) {
    const productId = Put?.Item?.productId;
    if (typeof productId === 'string') text = text.replaceAll(productId, typeid('prod').toString());
    const partition = Put?.Item?.PK;
    if (Put?.Item?.entityType === EntityType.idempotencyRecord && typeof partition === 'string') {
      const cut = partition.lastIndexOf('#') + 1;
      const fresh = randomBytes(partition.length)
        .toString('hex')
        .slice(0, partition.length - cut);
      text = text.replaceAll(partition, partition.slice(0, cut) + fresh);
    }
  }
  return { name: command.name, input: JSON.parse(text) };
}
