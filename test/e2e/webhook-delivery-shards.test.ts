import { beforeAll, describe, expect, it } from 'vitest';
import { deliveryShardOf } from '../../functions/domain/delivery-shards';
import { typeIdMilliseconds } from '../../functions/domain/id-time-bounds';
import { shardLeadMs } from '../../functions/domain/shard-history';
import { EntityType, keys } from '../../functions/store/keys';
import { raiseDeliveryShardCount } from '../../tools/admin/delivery-shards';
import { e2eFile, merchantId, t, webhookSettings } from '../support/e2e-test';
import type { HttpsReceiver } from '../support/https-receiver';
import { createInvoice, expectOk, invoiceBody } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { type ApiClient, newKey } from '../support/local-runtime';

const test = e2eFile(webhookSettings);
let receiver: HttpsReceiver;
let invoiceId: string;

test.beforeAll(async ({ receiver: started }) => {
  receiver = started;
  const refs = await invoiceFixtures(t.api, merchantId);
  invoiceId = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs))).invoiceId;
  // The router reads endpoints when it routes an event, not when the event was written: an endpoint
  // that sees the issue's event through first keeps later endpoints' counts exact.
  const witness = await subscribe();
  expect((await action('issue')).status).toBe(200);
  await waitUntilSettled(witness, 1);
  await t.api('DELETE', `/merchants/${merchantId}/webhook-endpoints/${witness}`, {
    idempotencyKey: newKey(),
  });
}, 60_000);

function action(name: 'issue' | 'send') {
  return t.api('POST', `/invoices/${invoiceId}/${name}`, { body: { merchantId }, idempotencyKey: newKey() });
}

/** One invoices.InvoiceSent event: the invoice sent again. */
async function event(): Promise<void> {
  expect((await action('send')).status).toBe(200);
}

async function subscribe(): Promise<string> {
  const created = await t.api('POST', `/merchants/${merchantId}/webhook-endpoints`, {
    body: { url: receiver.url(), eventTypes: ['invoices.InvoiceSent'] },
    idempotencyKey: newKey(),
  });
  expect(created.status).toBe(201);
  return created.body.webhookEndpointId;
}

const deliveriesPath = (endpointId: string) =>
  `/merchants/${merchantId}/webhook-endpoints/${endpointId}/deliveries`;

/** The endpoint's delivery items as stored, with the partition each is in. */
async function storedDeliveries(endpointId: string) {
  return (await t.scanTable()).filter(
    (item) => item.entityType === EntityType.webhookDelivery && item.webhookEndpointId === endpointId,
  );
}

/** Every delivery of the endpoint through the list, page by page, and the pages' sizes. */
async function listAll(api: ApiClient, endpointId: string, query: Record<string, string | number>) {
  const items: any[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await api('GET', deliveriesPath(endpointId), {
      query: { ...query, ...(cursor === undefined ? {} : { cursor }) },
    });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    items.push(...page.body.items);
    sizes.push(page.body.items.length);
    expect(page.body.page.hasMore).toBe(page.body.page.nextCursor !== undefined);
    cursor = page.body.page.nextCursor;
  } while (cursor !== undefined);
  return { items, sizes };
}

/**
 * Polls until the endpoint has `count` deliveries, every one succeeded. A loop of its own rather
 * than `expect.poll`, which runs only inside a test, as the set-up waits too.
 */
async function waitUntilSettled(endpointId: string, count: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let seen: unknown[] = [];
  while (Date.now() < deadline) {
    const stored = await storedDeliveries(endpointId);
    if (stored.length === count && stored.every((item) => item.status === 'succeeded')) return;
    seen = stored.map((item) => item.status);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `expected ${count} succeeded deliveries within ${timeoutMs} ms, saw ${JSON.stringify(seen)}`,
  );
}

/** Raises the count as an operator would, its lead time already passed: in force from now on. */
async function raiseNow(endpointId: string, count: number) {
  const now = new Date(Date.now() - shardLeadMs);
  return raiseDeliveryShardCount(endpointId, count, { now });
}

describe('an endpoint whose deliveries spread over 4 shards', () => {
  let endpointId: string;
  let since: string;
  let cursorOfOneShard: string;
  const before = 3;
  let total = 0;

  beforeAll(async () => {
    endpointId = await subscribe();
    for (let index = 0; index < before; index += 1) await event();
    await waitUntilSettled(endpointId, before);
    const firstPage = await t.api('GET', deliveriesPath(endpointId), { query: { limit: 1 } });
    cursorOfOneShard = firstPage.body.page.nextCursor;
    const raised = await raiseNow(endpointId, 4);
    since = raised.deliveryShards[0]?.since ?? '';
    expect(raised).toEqual({
      webhookEndpointId: endpointId,
      merchantId,
      deliveryShards: [{ since, count: 4 }],
    });
    // A burst after the raise, until each of the 4 partitions holds some (ids are random; 20 all but do).
    total = before;
    for (let sent = 0; sent < 60; sent += 1) {
      await event();
      total += 1;
      if (sent < 19) continue;
      const partitions = new Set((await storedDeliveries(endpointId)).map((item) => item.PK));
      if (partitions.size === 4) break;
    }
    await waitUntilSettled(endpointId, total);
  }, 180_000);

  it('writes each delivery minted after `since` to the partition of its shard, and the older ones to shard 0', async () => {
    const stored = await storedDeliveries(endpointId);
    const history = [{ since, count: 4 }];
    for (const item of stored) {
      const shard = deliveryShardOf(String(item.webhookDeliveryId), history);
      expect(item.PK).toBe(keys.deliveriesPartition(endpointId, shard));
    }
    const older = stored.filter(
      (item) => typeIdMilliseconds(String(item.webhookDeliveryId)) < Date.parse(since),
    );
    expect(older.map((item) => item.PK)).toEqual(Array(before).fill(`DELIVERIES#${endpointId}`));
    expect(new Set(stored.map((item) => item.PK))).toEqual(
      new Set([0, 1, 2, 3].map((shard) => keys.deliveriesPartition(endpointId, shard))),
    );
  });

  it('attempts and records every delivery once, whichever shard it is in', async () => {
    const stored = await storedDeliveries(endpointId);
    expect(stored.map((item) => [item.status, item.attemptCount])).toEqual(
      stored.map(() => ['succeeded', 1]),
    );
    const received = receiver.requests.map((request) => request.headers['merchant-webhook-id']);
    for (const item of stored) expect(received.filter((id) => id === item.webhookDeliveryId)).toHaveLength(1);
  });

  it('lists every delivery newest first across the shards, over pages that span `since`', async () => {
    const stored = await storedDeliveries(endpointId);
    const newestFirst = stored
      .map((item) => String(item.webhookDeliveryId))
      .sort()
      .reverse();
    for (const limit of [1, 4, 7, 100]) {
      const { items, sizes } = await listAll(t.api, endpointId, { limit });
      expect(items.map((item) => item.webhookDeliveryId)).toEqual(newestFirst);
      expect(sizes.slice(0, -1).every((size) => size === limit)).toBe(true);
    }
    const succeeded = await listAll(t.api, endpointId, { limit: 5, status: 'succeeded' });
    expect(succeeded.items.map((item) => item.webhookDeliveryId)).toEqual(newestFirst);
    expect((await listAll(t.api, endpointId, { limit: 5, status: 'pending' })).items).toEqual([]);
  });

  it('still takes a cursor signed before the count was raised: the older deliveries, all in shard 0', async () => {
    const page = await t.api('GET', deliveriesPath(endpointId), {
      query: { limit: 10, cursor: cursorOfOneShard },
    });
    expect(page.status).toBe(200);
    const older = (await storedDeliveries(endpointId))
      .filter((item) => item.PK === keys.deliveriesPartition(endpointId, 0))
      .map((item) => String(item.webhookDeliveryId))
      .sort()
      .reverse()
      .slice(-(before - 1));
    expect(page.body.items.map((item: any) => item.webhookDeliveryId)).toEqual(older);
    expect(page.body.page).toEqual({ hasMore: false });
  });

  it('redelivers a delivery of another shard, and the new one is attempted and listed', async () => {
    const sharded = (await storedDeliveries(endpointId)).find(
      (item) => item.PK !== keys.deliveriesPartition(endpointId, 0),
    );
    const original = String(sharded?.webhookDeliveryId);
    const redelivered = await t.api('POST', `${deliveriesPath(endpointId)}/${original}/redeliver`, {
      idempotencyKey: newKey(),
    });
    expect(redelivered.status).toBe(201);
    expect(redelivered.body.redeliveredFromId).toBe(original);
    total += 1;
    await waitUntilSettled(endpointId, total);
    const { items } = await listAll(t.api, endpointId, { limit: 100 });
    expect(items[0]).toMatchObject({
      webhookDeliveryId: redelivered.body.webhookDeliveryId,
      status: 'succeeded',
    });
  });

  it('pauses the deliveries of every shard while disabled and resumes them all when enabled', async () => {
    const patch = (status: string) =>
      t.api('PATCH', `/merchants/${merchantId}/webhook-endpoints/${endpointId}`, {
        body: { status },
        idempotencyKey: newKey(),
      });
    expect((await patch('disabled')).status).toBe(200);
    const earlier = new Set((await storedDeliveries(endpointId)).map((item) => item.webhookDeliveryId));
    const pausedIn = new Set<unknown>();
    for (let sent = 0; sent < 40 && pausedIn.size < 2; sent += 1) {
      await event();
      total += 1;
      await expect
        .poll(async () => (await storedDeliveries(endpointId)).length, { timeout: 20_000, interval: 100 })
        .toBe(total);
      for (const item of await storedDeliveries(endpointId)) {
        if (!earlier.has(item.webhookDeliveryId)) pausedIn.add(item.PK);
      }
    }
    const paused = (await storedDeliveries(endpointId)).filter(
      (item) => !earlier.has(item.webhookDeliveryId),
    );
    expect(paused.map((item) => [item.status, item.paused, item.attemptCount])).toEqual(
      paused.map(() => ['pending', true, 0]),
    );
    expect(pausedIn.size).toBeGreaterThanOrEqual(2);

    expect((await patch('active')).status).toBe(200);
    await waitUntilSettled(endpointId, total);
  }, 120_000);

  it('answers 404 for another merchant, and once the endpoint is deleted, on first and cursor pages', async () => {
    const another = await t.anotherMerchant();
    const firstPage = await t.api('GET', deliveriesPath(endpointId), { query: { limit: 2 } });
    const cursor = firstPage.body.page.nextCursor;
    const foreign = await another.api(
      'GET',
      `/merchants/${another.merchantId}/webhook-endpoints/${endpointId}/deliveries`,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({
      code: 'not_found',
      message: 'The webhook endpoint does not exist.',
    });

    const deleted = await t.api('DELETE', `/merchants/${merchantId}/webhook-endpoints/${endpointId}`, {
      idempotencyKey: newKey(),
    });
    expect(deleted.status).toBe(200);
    for (const query of [{ limit: 2 }, { limit: 2, cursor }]) {
      const page = await t.api('GET', deliveriesPath(endpointId), { query });
      expect(page.status).toBe(404);
      expect(page.body.error).toMatchObject({
        code: 'not_found',
        message: 'The webhook endpoint does not exist.',
      });
    }
  });
});

describe('the deliveries list of an endpoint with one shard', () => {
  it('reads marker and page in one Query, and answers 404 for an unknown endpoint', async () => {
    const endpointId = await subscribe();
    const marker = (await t.scanTable()).find(
      (item) => item.PK === keys.deliveriesPartition(endpointId, 0) && item.SK === 'ENDPOINT',
    );
    expect(marker).toEqual({
      PK: `DELIVERIES#${endpointId}`,
      SK: 'ENDPOINT',
      entityType: EntityType.webhookDeliveriesMarker,
      merchantId,
      webhookEndpointId: endpointId,
      deleted: false,
    });
    const unknown = await t.api('GET', deliveriesPath('whk_01jzzzzzzzzzzzzzzzzzzzzzzz'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('The webhook endpoint does not exist.');
    await t.api('DELETE', `/merchants/${merchantId}/webhook-endpoints/${endpointId}`, {
      idempotencyKey: newKey(),
    });
  });
});
