import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { runRecoveryBatch } from '../../../functions/delivery/recovery-batch';
import type { DeliveryShardHistory } from '../../../functions/domain/delivery-shards';
import { typeIdBound } from '../../../functions/domain/id-time-bounds';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import {
  DeliveryStatus,
  deliveryIdFor,
  newDelivery,
  type WebhookDelivery,
} from '../../../functions/domain/webhook-delivery';
import { newWebhookEndpoint } from '../../../functions/domain/webhook-endpoint';
import {
  newRecovery,
  recoveryBatchSize,
  recoveryStallSeconds,
  type StoredRecovery,
} from '../../../functions/domain/webhook-recovery';
import { documentClient, tableName } from '../../../functions/store/client';
import { dueDeliveryShard, keys } from '../../../functions/store/keys';
import { sendTransaction, TransactionConditionFailed } from '../../../functions/store/transaction';
import { buildPutNewDelivery, toDelivery } from '../../../functions/store/webhook-deliveries';
import { buildAdvanceSequence, buildPutNewEndpoint } from '../../../functions/store/webhook-endpoints';
import {
  buildStartRecovery,
  runningRecoveryIdOf,
  toStoredRecovery,
} from '../../../functions/store/webhook-recoveries';
import { useFreshTable } from '../../support/table-environment';

const hour = 60 * 60 * 1000;
const endpointUrl = 'https://hooks.example.com/orders';

let merchantId: string;
let endpointId: string;

beforeEach(async () => {
  await useFreshTable();
  merchantId = newId('mer');
  endpointId = newId('whk');
  const endpoint = newWebhookEndpoint({
    webhookEndpointId: endpointId,
    merchantId,
    url: endpointUrl,
    eventTypes: [EventType.invoicePaid],
    now: new Date(Date.now() - 2 * hour).toISOString(),
  });
  await sendTransaction([...buildPutNewEndpoint(endpoint, 'sealed')]);
});

/** An event id minted `ago` milliseconds back, one millisecond apart per `offset`. */
function eventIdAt(ago: number, offset = 0): string {
  const id = typeIdBound('evt', new Date(Date.now() - ago + offset), 'lowest');
  return `${id.slice(0, -4)}${newId('evt').slice(-4)}`;
}

/** Stores a delivery of `eventId` to the endpoint, as the router writes it. */
async function storeDelivery(
  eventId: string,
  overrides: Partial<WebhookDelivery> & { webhookDeliveryId?: string } = {},
  shards: DeliveryShardHistory = [],
): Promise<WebhookDelivery> {
  const delivery: WebhookDelivery = {
    ...newDelivery({
      webhookDeliveryId: overrides.webhookDeliveryId ?? deliveryIdFor(eventId, endpointId),
      webhookEndpointId: endpointId,
      merchantId,
      eventId,
      eventType: EventType.invoicePaid,
      data: { invoiceId: `inv_${eventId.slice(-6)}` },
      paused: false,
      objectVersion: 2,
      now: new Date().toISOString(),
    }),
    status: DeliveryStatus.exhausted,
    attemptCount: 5,
    ...overrides,
  };
  await documentClient().send(new PutCommand(buildPutNewDelivery(delivery, delivery.createdAt, shards)));
  return delivery;
}

/** Sets an attribute of the endpoint behind the API's back, as a change made while a recovery runs. */
async function setEndpoint(attribute: 'status' | 'url', value: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.webhookEndpoint(merchantId, endpointId),
      UpdateExpression: 'SET #attribute = :value',
      ExpressionAttributeNames: { '#attribute': attribute },
      ExpressionAttributeValues: { ':value': value },
    }),
  );
}

async function setLastSequence(last: number): Promise<void> {
  await sendTransaction([
    buildAdvanceSequence({ merchantId, webhookEndpointId: endpointId, from: 0, to: last }),
  ]);
}

async function startRecovery(since: Date, until: Date = new Date()): Promise<StoredRecovery> {
  const stored = newRecovery({
    recoveryId: newId('whkrec'),
    webhookEndpointId: endpointId,
    merchantId,
    url: endpointUrl,
    since: since.toISOString(),
    until: until.toISOString(),
    now: new Date().toISOString(),
  });
  await sendTransaction([...buildStartRecovery(stored)]);
  return stored;
}

async function storedRecovery(recoveryId: string): Promise<StoredRecovery> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.webhookRecovery(merchantId, recoveryId) }),
  );
  if (Item === undefined) throw new Error(`no recovery ${recoveryId}`);
  return toStoredRecovery(Item);
}

/** Runs batches as the router does for each write of the record, until the recovery ends. */
async function runToEnd(recoveryId: string): Promise<{ final: StoredRecovery; batches: number }> {
  for (let batches = 0; batches < 50; batches += 1) {
    const stored = await storedRecovery(recoveryId);
    if (stored.recovery.status !== 'running') return { final: stored, batches };
    await runRecoveryBatch(stored, new Date());
  }
  throw new Error('the recovery did not end in 50 batches');
}

async function recoveryItem(recoveryId: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.webhookRecovery(merchantId, recoveryId) }),
  );
  return Item;
}

async function deliveriesOfEndpoint(shard = 0): Promise<WebhookDelivery[]> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :partition AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: {
        ':partition': keys.deliveriesPartition(endpointId, shard),
        ':prefix': 'DELIVERY#',
      },
      ConsistentRead: true,
    }),
  );
  return Items.map(toDelivery);
}

async function lockOf(): Promise<Record<string, unknown> | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.webhookRecoveryLock(merchantId, endpointId) }),
  );
  return Item;
}

/** The deliveries the event-deliveries index (GSI5) lists under the event. */
async function indexedDeliveryIds(eventId: string): Promise<string[]> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI5',
      KeyConditionExpression: 'eventId = :eventId',
      FilterExpression: 'entityType = :delivery',
      ExpressionAttributeValues: { ':eventId': eventId, ':delivery': 'WebhookDelivery' },
    }),
  );
  return Items.map((item) => String(item.webhookDeliveryId)).sort();
}

describe('runRecoveryBatch', () => {
  it('redelivers every exhausted delivery of the window once, in batches of 40, numbered on from the sequence', async () => {
    await setLastSequence(7);
    const count = 2 * recoveryBatchSize + 10;
    const exhausted: WebhookDelivery[] = [];
    for (let index = 0; index < count; index += 1)
      exhausted.push(await storeDelivery(eventIdAt(hour, index)));
    const { recovery } = await startRecovery(new Date(Date.now() - 2 * hour));

    const { final, batches } = await runToEnd(recovery.recoveryId);

    expect(batches).toBe(3);
    expect(final.recovery).toMatchObject({
      status: 'completed',
      exhaustedFound: count,
      redelivered: count,
      skipped: 0,
      completedAt: expect.any(String),
    });
    const created = (await deliveriesOfEndpoint()).filter((delivery) => delivery.redeliveredFromId !== null);
    expect(created.map((delivery) => delivery.redeliveredFromId).sort()).toEqual(
      exhausted.map((delivery) => delivery.webhookDeliveryId).sort(),
    );
    expect(created.map((delivery) => delivery.sequence).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: count }, (_, index) => 8 + index),
    );
    for (const delivery of created) {
      expect(delivery).toMatchObject({ status: 'pending', attemptCount: 0, paused: false, objectVersion: 2 });
      const original = exhausted.find(
        ({ webhookDeliveryId }) => webhookDeliveryId === delivery.redeliveredFromId,
      );
      expect(delivery.data).toEqual(original?.data);
      expect(await indexedDeliveryIds(delivery.eventId)).toEqual(
        [original?.webhookDeliveryId, delivery.webhookDeliveryId].sort(),
      );
    }
    expect(await lockOf()).toBeUndefined();
  });

  it('sends each event once: only its newest delivery to the endpoint is redelivered, and none when a newer one is pending', async () => {
    const twice = eventIdAt(hour, 1);
    const first = await storeDelivery(twice);
    const later = await storeDelivery(twice, {
      webhookDeliveryId: newId('whkdel'),
      redeliveredFromId: first.webhookDeliveryId,
    });
    const inFlight = eventIdAt(hour, 2);
    const stuck = await storeDelivery(inFlight);
    await storeDelivery(inFlight, {
      webhookDeliveryId: newId('whkdel'),
      status: DeliveryStatus.pending,
      attemptCount: 1,
      redeliveredFromId: stuck.webhookDeliveryId,
    });
    const { recovery } = await startRecovery(new Date(Date.now() - 2 * hour));

    const { final } = await runToEnd(recovery.recoveryId);

    expect(final.recovery).toMatchObject({ exhaustedFound: 3, redelivered: 1, skipped: 2 });
    const created = (await deliveriesOfEndpoint()).filter(
      (delivery) => delivery.createdAt >= final.recovery.createdAt && delivery.redeliveredFromId !== null,
    );
    expect(created.map((delivery) => delivery.redeliveredFromId)).toEqual([later.webhookDeliveryId]);
  });

  it('leaves succeeded, pending, test and out-of-window deliveries alone', async () => {
    await storeDelivery(eventIdAt(hour, 1), { status: DeliveryStatus.succeeded, attemptCount: 1 });
    await storeDelivery(eventIdAt(hour, 2), { status: DeliveryStatus.pending, attemptCount: 2 });
    await storeDelivery(eventIdAt(hour, 3), { webhookDeliveryId: newId('whkdel'), test: true });
    await storeDelivery(eventIdAt(5 * hour));
    await storeDelivery(eventIdAt(0, -1000));
    const inWindow = await storeDelivery(eventIdAt(hour, 4));
    const { recovery } = await startRecovery(
      new Date(Date.now() - 2 * hour),
      new Date(Date.now() - 30 * 60 * 1000),
    );
    const before = (await deliveriesOfEndpoint()).length;

    const { final } = await runToEnd(recovery.recoveryId);

    expect(final.recovery).toMatchObject({ exhaustedFound: 1, redelivered: 1, skipped: 0 });
    const after = await deliveriesOfEndpoint();
    expect(after).toHaveLength(before + 1);
    expect(
      after.filter((delivery) => delivery.redeliveredFromId === inWindow.webhookDeliveryId),
    ).toHaveLength(1);
  });

  it('keeps a running recovery in the due index at its last write plus the stall time, and takes it out when it ends', async () => {
    for (let index = 0; index <= recoveryBatchSize; index += 1) await storeDelivery(eventIdAt(hour, index));
    const started = await startRecovery(new Date(Date.now() - 2 * hour));
    const { recoveryId } = started.recovery;
    const entryAfter = (writtenAt: string) => {
      const nudgeAt = new Date(Date.parse(writtenAt) + recoveryStallSeconds * 1000).toISOString();
      return {
        GSI1PK: keys.dueDeliveriesPartitions()[dueDeliveryShard(recoveryId)],
        GSI1SK: `${nudgeAt}#${recoveryId}`,
        nudgeAt,
      };
    };
    expect(await recoveryItem(recoveryId)).toMatchObject(entryAfter(started.recovery.createdAt));

    await runRecoveryBatch(started, new Date());

    const running = await storedRecovery(recoveryId);
    expect(running).toMatchObject({ step: 1, recovery: { status: 'running' } });
    expect(await recoveryItem(recoveryId)).toMatchObject(entryAfter(running.recovery.updatedAt));

    const { final } = await runToEnd(recoveryId);

    expect(final.recovery.status).toBe('completed');
    const ended = await recoveryItem(recoveryId);
    expect(ended).not.toHaveProperty('GSI1PK');
    expect(ended).not.toHaveProperty('GSI1SK');
    expect(ended).not.toHaveProperty('nudgeAt');
  });

  it('writes nothing when a batch is run again from the image it already committed', async () => {
    await storeDelivery(eventIdAt(hour));
    const started = await startRecovery(new Date(Date.now() - 2 * hour));
    await runRecoveryBatch(started, new Date());
    const after = await deliveriesOfEndpoint();
    const committed = await storedRecovery(started.recovery.recoveryId);

    await runRecoveryBatch(started, new Date());

    expect(await deliveriesOfEndpoint()).toEqual(after);
    expect(await storedRecovery(started.recovery.recoveryId)).toEqual(committed);
    expect(committed).toMatchObject({ step: 1, recovery: { redelivered: 1, skipped: 0 } });
  });

  it('numbers the batch afresh when another writer took the numbers it read', async () => {
    await setLastSequence(3);
    await storeDelivery(eventIdAt(hour, 1));
    await storeDelivery(eventIdAt(hour, 2));
    const started = await startRecovery(new Date(Date.now() - 2 * hour));
    // The router numbers two deliveries between the batch's read and its commit.
    const { commitRecoveryBatch } = await import('../../../functions/store/webhook-recoveries');
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookDeliverySequence(merchantId, endpointId),
        UpdateExpression: 'SET lastSequence = :five',
        ExpressionAttributeValues: { ':five': 5 },
      }),
    );
    const redelivery = (await deliveriesOfEndpoint())[0] as WebhookDelivery;
    const next = { ...started, step: 1 };
    const outcome = await commitRecoveryBatch(
      started,
      next,
      [
        {
          ...redelivery,
          webhookDeliveryId: newId('whkdel'),
          redeliveredFromId: redelivery.webhookDeliveryId,
          status: 'pending',
          attemptCount: 0,
        },
      ],
      [],
      3,
    );

    expect(outcome).toBe('committed');
    const numbered = (await deliveriesOfEndpoint()).filter((delivery) => delivery.redeliveredFromId !== null);
    expect(numbered.map((delivery) => delivery.sequence)).toEqual([6]);
  });

  it('reads every shard the endpoint ever had', async () => {
    const shards = [{ since: new Date(Date.now() - 3 * hour).toISOString(), count: 2 }];
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookEndpoint(merchantId, endpointId),
        UpdateExpression: 'SET deliveryShards = :shards',
        ExpressionAttributeValues: { ':shards': shards },
      }),
    );
    for (let index = 0; index < 12; index += 1) await storeDelivery(eventIdAt(hour, index), {}, shards);
    const inShardOne = (await deliveriesOfEndpoint(1)).length;
    expect(inShardOne).toBeGreaterThan(0);
    const { recovery } = await startRecovery(new Date(Date.now() - 2 * hour));

    const { final } = await runToEnd(recovery.recoveryId);

    expect(final.recovery).toMatchObject({ exhaustedFound: 12, redelivered: 12 });
  });

  it('ends as canceled, releasing the lock, when the endpoint was deleted', async () => {
    await storeDelivery(eventIdAt(hour));
    const { recovery } = await startRecovery(new Date(Date.now() - 2 * hour));
    await setEndpoint('status', 'deleted');

    const { final } = await runToEnd(recovery.recoveryId);

    expect(final.recovery).toMatchObject({
      status: 'canceled',
      redelivered: 0,
      completedAt: expect.any(String),
    });
    expect(await lockOf()).toBeUndefined();
    expect((await deliveriesOfEndpoint()).filter((delivery) => delivery.redeliveredFromId !== null)).toEqual(
      [],
    );
  });

  it.each([
    ['disabled', () => setEndpoint('status', 'disabled')],
    ['given another url', () => setEndpoint('url', 'https://elsewhere.example.net/hooks')],
  ])(
    'ends as canceled, redelivering nothing, when the endpoint was %s since the start',
    async (_, change) => {
      await storeDelivery(eventIdAt(hour));
      const { recovery } = await startRecovery(new Date(Date.now() - 2 * hour));
      await change();

      const { final } = await runToEnd(recovery.recoveryId);

      expect(final.recovery).toMatchObject({ status: 'canceled', redelivered: 0 });
      expect(await lockOf()).toBeUndefined();
      expect(
        (await deliveriesOfEndpoint()).filter((delivery) => delivery.redeliveredFromId !== null),
      ).toEqual([]);
    },
  );

  it('binds each delivery it makes to the url it checked', async () => {
    await storeDelivery(eventIdAt(hour));
    const { recovery } = await startRecovery(new Date(Date.now() - 2 * hour));

    await runToEnd(recovery.recoveryId);

    const created = (await deliveriesOfEndpoint()).filter((delivery) => delivery.redeliveredFromId !== null);
    expect(created).toEqual([expect.objectContaining({ targetUrl: endpointUrl, status: 'pending' })]);
  });
});

describe('buildStartRecovery', () => {
  it('starts one recovery per endpoint: a second start fails on the lock, which names the running one', async () => {
    const first = await startRecovery(new Date(Date.now() - hour));
    const error = await startRecovery(new Date(Date.now() - hour)).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(TransactionConditionFailed);
    const failure = (error as TransactionConditionFailed).failureAt(1);
    expect(runningRecoveryIdOf(failure?.existing)).toBe(first.recovery.recoveryId);
    expect(await lockOf()).toMatchObject({ recoveryId: first.recovery.recoveryId });
  });
});
