import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import { expiresAtOfEvent } from '../../../functions/domain/retention';
import { deliveryIdFor, newDelivery } from '../../../functions/domain/webhook-delivery';
import { documentClient, tableName } from '../../../functions/store/client';
import { EntityType } from '../../../functions/store/keys';
import {
  buildPutNewDelivery,
  claimDelivery,
  type NewDelivery,
  putNewDeliveries,
} from '../../../functions/store/webhook-deliveries';
import { documentClientCommandsDuring } from '../../support/dynamodb-commands';
import { setItemTtl } from '../../support/item-ttl';
import { useFreshTable } from '../../support/table-environment';

const now = '2026-11-22T12:00:00.000Z';

beforeEach(async () => {
  await useFreshTable();
});

/** `count` deliveries, each to an endpoint of its own unless `endpoints` are named (in turn). */
function deliveries(count: number, data: Record<string, unknown> = {}, endpoints: readonly string[] = []) {
  const eventId = newId('evt');
  const merchantId = newId('mer');
  return Array.from({ length: count }, (_, index) => ({
    shards: [],
    delivery: newDelivery({
      webhookDeliveryId: newId('whkdel'),
      webhookEndpointId: endpoints[index % endpoints.length] ?? newId('whk'),
      merchantId,
      eventId,
      eventType: EventType.invoicePaid,
      data,
      paused: false,
      now,
    }),
  }));
}

async function storedItemsOf(entityType: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({ TableName: tableName(), ConsistentRead: true, ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []).filter((item) => item.entityType === entityType));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return items;
}

async function storedDeliveryIds(): Promise<string[]> {
  const items = await storedItemsOf(EntityType.webhookDelivery);
  return items.map((item) => String(item.webhookDeliveryId)).sort();
}

/** The deliveries the event-deliveries index (GSI5) lists under each event, as `<event>/<delivery>`. */
async function indexedDeliveries(): Promise<string[]> {
  const { Items = [] } = await documentClient().send(
    new ScanCommand({ TableName: tableName(), IndexName: 'GSI5' }),
  );
  return Items.filter((item) => item.entityType === EntityType.webhookDelivery)
    .map((item) => `${String(item.eventId)}/${String(item.webhookDeliveryId)}`)
    .sort();
}

const indexEntriesOf = (batch: readonly NewDelivery[]) =>
  batch.map(({ delivery }) => `${delivery.eventId}/${delivery.webhookDeliveryId}`).sort();

describe('putNewDeliveries', () => {
  it('writes 250 deliveries to 5 endpoints, each under its event in GSI5, in three transactions of at most 100 actions, sequence updates included', async () => {
    const batch = deliveries(
      250,
      {},
      Array.from({ length: 5 }, () => newId('whk')),
    );
    let created = 0;
    const commands = await documentClientCommandsDuring(async () => {
      created = await putNewDeliveries(batch);
    });
    // One put per delivery and five sequence Updates: 95 deliveries a transaction.
    expect(commands).toEqual(Array(3).fill('TransactWriteItemsCommand'));
    expect(created).toBe(250);
    expect(await storedDeliveryIds()).toEqual(batch.map((each) => each.delivery.webhookDeliveryId).sort());
    expect(await indexedDeliveries()).toEqual(indexEntriesOf(batch));
  });

  it('projects into the event-deliveries index only what the list of an event’s deliveries shows', async () => {
    const [one] = deliveries(1, { invoiceId: 'inv_1' });
    if (one === undefined) throw new Error('no delivery');
    await putNewDeliveries([one]);
    const { Items = [] } = await documentClient().send(
      new ScanCommand({ TableName: tableName(), IndexName: 'GSI5' }),
    );
    expect(Items).toHaveLength(1);
    expect(Items[0]).toMatchObject({
      eventId: one.delivery.eventId,
      createdAt: one.delivery.createdAt,
      webhookDeliveryId: one.delivery.webhookDeliveryId,
      merchantId: one.delivery.merchantId,
      status: 'pending',
      ttl: expiresAtOfEvent(one.delivery.eventId),
    });
    expect(Items[0]).not.toHaveProperty('data');
  });

  it('keeps each transaction under DynamoDB’s 4 MB by splitting deliveries of large events', async () => {
    // 12 deliveries of 300 KB each weigh 3.6 MB: more than a transaction may carry with its margin.
    const batch = deliveries(12, { note: 'x'.repeat(300 * 1024) });
    const commands = await documentClientCommandsDuring(async () => {
      expect(await putNewDeliveries(batch)).toBe(12);
    });
    expect(commands).toEqual(['TransactWriteItemsCommand', 'TransactWriteItemsCommand']);
    expect(await storedDeliveryIds()).toEqual(batch.map((each) => each.delivery.webhookDeliveryId).sort());
  });

  it('puts a delivery named twice once, in one transaction', async () => {
    // DynamoDB refuses a transaction that names an item twice; DynamoDB Local instead cancels it on
    // the second put's condition, which would show here as a second transaction.
    const batch = deliveries(3);
    const commands = await documentClientCommandsDuring(async () => {
      expect(await putNewDeliveries([...batch, ...batch])).toBe(3);
    });
    expect(commands).toEqual(['TransactWriteItemsCommand']);
    expect(await storedDeliveryIds()).toEqual(batch.map((each) => each.delivery.webhookDeliveryId).sort());
  });

  it('creates nothing and counts nothing when every delivery exists', async () => {
    const batch = deliveries(5);
    await putNewDeliveries(batch);
    expect(await putNewDeliveries(batch)).toBe(0);
    expect(await storedDeliveryIds()).toHaveLength(5);
    expect(await indexedDeliveries()).toEqual(indexEntriesOf(batch));
  });

  it('drops an existing delivery on a replay and creates the rest, each under its event in GSI5', async () => {
    const batch = deliveries(5);
    await putNewDeliveries(batch.slice(1, 3));
    const commands = await documentClientCommandsDuring(async () => {
      expect(await putNewDeliveries(batch)).toBe(3);
    });
    // The first transaction is cancelled on the existing deliveries; the second commits.
    expect(commands).toEqual(['TransactWriteItemsCommand', 'TransactWriteItemsCommand']);
    expect(await storedDeliveryIds()).toEqual(batch.map((each) => each.delivery.webhookDeliveryId).sort());
    expect(await indexedDeliveries()).toEqual(indexEntriesOf(batch));
  });
});

beforeAll(async () => {
  await useFreshTable();
});

/** A pending delivery written as the router writes it, and the key it was written under. */
async function pendingDelivery() {
  const eventId = newId('evt');
  const webhookEndpointId = newId('whk');
  const delivery = newDelivery({
    webhookDeliveryId: deliveryIdFor(eventId, webhookEndpointId),
    webhookEndpointId,
    merchantId: newId('mer'),
    eventId,
    eventType: EventType.payoutCreated,
    data: { payoutId: newId('po') },
    paused: false,
    now: new Date().toISOString(),
  });
  const put = buildPutNewDelivery(delivery, new Date().toISOString(), []);
  await documentClient().send(new PutCommand(put));
  return { delivery, key: { PK: put.Item.PK, SK: put.Item.SK } };
}

// Here, and not through a runtime: a runtime's own dispatcher would race the test for the lease.
describe('claimDelivery and retention', () => {
  it('never leases a delivery whose ttl has passed for an attempt, and leases it while kept', async () => {
    const { delivery, key } = await pendingDelivery();
    const setTtl = (ttl: number) => setItemTtl(process.env.TABLE_NAME, key, ttl);
    const lease = () =>
      claimDelivery(
        {
          webhookEndpointId: delivery.webhookEndpointId,
          webhookDeliveryId: delivery.webhookDeliveryId,
          attemptCount: 0,
        },
        0,
        new Date(),
        new Date(Date.now() + 60_000),
      );
    const nowSeconds = Math.floor(Date.now() / 1000);
    await setTtl(nowSeconds - 1);
    expect(await lease()).toBeUndefined();
    await setTtl(nowSeconds + 3600);
    expect((await lease())?.webhookDeliveryId).toBe(delivery.webhookDeliveryId);
  });
});
