import {
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetFunctionEnvironment } from '../../../functions/config';
import type { DeliveryMessage } from '../../../functions/delivery/delivery-message';
import { createRouter } from '../../../functions/delivery/router';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import {
  deliveryIdFor,
  deliveryView,
  newDelivery,
  redeliveryOf,
  type WebhookDelivery,
} from '../../../functions/domain/webhook-delivery';
import {
  newWebhookEndpoint,
  updateWebhookEndpoint,
  type WebhookEndpoint,
} from '../../../functions/domain/webhook-endpoint';
import { documentClient, tableName } from '../../../functions/store/client';
import { EntityType, keys, SortKeyPrefix } from '../../../functions/store/keys';
import {
  buildCreateDelivery,
  commitNumberedDelivery,
  getDelivery,
  getEndpointWithDelivery,
  replaceDelivery,
  toDelivery,
} from '../../../functions/store/webhook-deliveries';
import {
  buildPutNewEndpoint,
  buildReplaceEndpoint,
  getEndpoint,
} from '../../../functions/store/webhook-endpoints';
import { documentClientCommandsDuring, withDocumentClientMiddleware } from '../../support/dynamodb-commands';
import { printedJsonLinesDuring } from '../../support/printed-json-lines';
import { streamEvent, streamRecord } from '../../support/stream-records';
import { useFreshTable } from '../../support/table-environment';

const merchantId = newId('mer');
const now = '2026-11-22T12:00:00.000Z';
let sent: { message: DeliveryMessage; delaySeconds: 0 | undefined }[];
let route: ReturnType<typeof createRouter>;

beforeEach(async () => {
  await useFreshTable();
  sent = [];
  route = createRouter({
    queue: { send: async (message, delaySeconds) => void sent.push({ message, delaySeconds }) },
    now: () => new Date(now),
  });
});

async function endpoint(
  eventTypes: EventType[],
  status: WebhookEndpoint['status'] = 'active',
  createdAt = now,
) {
  const created = {
    ...newWebhookEndpoint({
      webhookEndpointId: newId('whk'),
      merchantId,
      url: 'https://hooks.example.com/x',
      eventTypes,
      now: createdAt,
    }),
    status,
  };
  for (const { Put } of buildPutNewEndpoint(created, 'sealed'))
    await documentClient().send(new PutCommand(Put));
  return created;
}

/** Changes the stored endpoint's event types at `at`, as an update through the API does. */
async function changeEndpoint(created: WebhookEndpoint, eventTypes: EventType[], at: string) {
  const stored = await getEndpoint(merchantId, created.webhookEndpointId);
  if (stored === undefined) throw new Error(`endpoint ${created.webhookEndpointId} is not stored`);
  const next = updateWebhookEndpoint(stored.endpoint, { eventTypes }, at);
  for (const { Put } of buildReplaceEndpoint(stored, { ...stored, endpoint: next }))
    await documentClient().send(new PutCommand(Put));
}

function eventItem(eventType: EventType) {
  const eventId = newId('evt');
  return {
    ...keys.event(eventId),
    entityType: EntityType.event,
    eventId,
    eventType,
    merchantId,
    payload: { invoiceId: 'inv_1', amount: 100 },
    createdAt: now,
  };
}

/** A delivery's stream image, of an event and endpoint of its own. */
function delivery(overrides: Record<string, unknown> = {}) {
  return {
    ...newDelivery({
      webhookDeliveryId: newId('whkdel'),
      webhookEndpointId: newId('whk'),
      merchantId,
      eventId: newId('evt'),
      eventType: EventType.invoicePaid,
      data: {},
      paused: false,
      now,
    }),
    entityType: EntityType.webhookDelivery,
    ...overrides,
  };
}

async function deliveriesInTable() {
  const { Items = [] } = await documentClient().send(
    new ScanCommand({ TableName: tableName(), ConsistentRead: true }),
  );
  return Items.filter((item) => item.entityType === EntityType.webhookDelivery).map(toDelivery);
}

describe('router: events', () => {
  it('makes exactly one delivery per subscribed endpoint, even when the batch is retried', async () => {
    const active = await endpoint([EventType.invoicePaid, EventType.invoiceSent]);
    const disabled = await endpoint([EventType.invoicePaid], 'disabled');
    await endpoint([EventType.invoiceSent]);
    await endpoint([EventType.invoicePaid], 'deleted');
    const event = eventItem(EventType.invoicePaid);
    const batch = streamEvent(streamRecord('INSERT', { newImage: event }));

    expect(await route(batch)).toEqual({ batchItemFailures: [] });
    expect(await route(batch)).toEqual({ batchItemFailures: [] });

    const deliveries = await deliveriesInTable();
    expect(deliveries.map((delivery) => delivery.webhookEndpointId).sort()).toEqual(
      [active.webhookEndpointId, disabled.webhookEndpointId].sort(),
    );
    const toActive = deliveries.find((delivery) => delivery.webhookEndpointId === active.webhookEndpointId);
    expect(toActive).toMatchObject({
      webhookDeliveryId: deliveryIdFor(event.eventId, active.webhookEndpointId),
      eventType: EventType.invoicePaid,
      data: event.payload,
      status: 'pending',
      attemptCount: 0,
      attempts: [],
      paused: false,
      redeliveredFromId: null,
      lastAttemptAt: null,
    });
    const toDisabled = deliveries.find(
      (delivery) => delivery.webhookEndpointId === disabled.webhookEndpointId,
    );
    expect(toDisabled?.paused).toBe(true);
  });

  it('makes no delivery to an endpoint created after the event occurred, even by a millisecond', async () => {
    const before = await endpoint([EventType.invoiceSent], 'active', '2026-11-22T11:59:59.999Z');
    const atSameTime = await endpoint([EventType.invoiceSent], 'disabled', now);
    await endpoint([EventType.invoiceSent], 'active', '2026-11-22T12:00:00.001Z');

    await route(streamEvent(streamRecord('INSERT', { newImage: eventItem(EventType.invoiceSent) })));

    const deliveries = await deliveriesInTable();
    expect(deliveries.map((delivery) => delivery.webhookEndpointId).sort()).toEqual(
      [before.webhookEndpointId, atSameTime.webhookEndpointId].sort(),
    );
  });

  it('makes no delivery to an endpoint whose update subscribed it to the type after the event', async () => {
    const early = '2026-11-22T11:00:00.000Z';
    const added = await endpoint([EventType.invoicePaid], 'active', early);
    const readded = await endpoint([EventType.invoiceSent], 'active', early);
    const kept = await endpoint([EventType.invoiceSent], 'active', early);
    await changeEndpoint(added, [EventType.invoicePaid, EventType.invoiceSent], '2026-11-22T12:00:00.001Z');
    await changeEndpoint(readded, [EventType.invoicePaid], '2026-11-22T11:30:00.000Z');
    await changeEndpoint(readded, [EventType.invoiceSent], '2026-11-22T12:00:05.000Z');
    await changeEndpoint(kept, [EventType.invoiceSent, EventType.invoicePaid], '2026-11-22T12:00:05.000Z');

    await route(streamEvent(streamRecord('INSERT', { newImage: eventItem(EventType.invoiceSent) })));

    const deliveries = await deliveriesInTable();
    expect(deliveries.map((delivery) => delivery.webhookEndpointId)).toEqual([kept.webhookEndpointId]);
  });

  it('makes no delivery for a merchant without endpoints', async () => {
    await route(streamEvent(streamRecord('INSERT', { newImage: eventItem(EventType.invoiceSent) })));
    expect(await deliveriesInTable()).toEqual([]);
  });
});

describe('router: fan-out in transactions', () => {
  const writes = (commands: string[]) => commands.filter((command) => command !== 'QueryCommand');

  async function storedDeliveryItems() {
    const { Items = [] } = await documentClient().send(
      new ScanCommand({ TableName: tableName(), ConsistentRead: true }),
    );
    return Items.filter((item) => item.entityType === EntityType.webhookDelivery);
  }

  it('creates an event’s 20 deliveries in exactly one write round trip', async () => {
    const endpoints = await Promise.all(Array.from({ length: 20 }, () => endpoint([EventType.invoicePaid])));
    const event = eventItem(EventType.invoicePaid);

    const commands = await documentClientCommandsDuring(async () => {
      expect(await route(streamEvent(streamRecord('INSERT', { newImage: event })))).toEqual({
        batchItemFailures: [],
      });
    });

    expect(commands).toEqual(['QueryCommand', 'TransactWriteItemsCommand']);
    const deliveries = await deliveriesInTable();
    expect(deliveries.map((delivery) => delivery.webhookDeliveryId).sort()).toEqual(
      endpoints.map((each) => deliveryIdFor(event.eventId, each.webhookEndpointId)).sort(),
    );
  });

  it('creates only the missing deliveries on a replay, leaving created and attempted ones as they are', async () => {
    const endpoints = await Promise.all(Array.from({ length: 6 }, () => endpoint([EventType.invoicePaid])));
    const event = eventItem(EventType.invoicePaid);
    const [attempted, created] = endpoints.slice(0, 2).map((each) =>
      newDelivery({
        webhookDeliveryId: deliveryIdFor(event.eventId, each.webhookEndpointId),
        webhookEndpointId: each.webhookEndpointId,
        merchantId,
        eventId: event.eventId,
        eventType: event.eventType,
        data: event.payload,
        paused: false,
        now: '2026-11-22T11:00:00.000Z',
      }),
    ) as [WebhookDelivery, WebhookDelivery];
    for (const each of [attempted, created]) {
      const items = buildCreateDelivery(each, each.createdAt, []);
      await documentClient().send(new TransactWriteCommand({ TransactItems: [...items] }));
    }
    const attempt = {
      attemptNumber: 1,
      attemptedAt: '2026-11-22T11:00:01.000Z',
      responseStatusCode: 500,
      durationMs: 12,
      errorMessage: 'HTTP 500',
    };
    const next = { ...attempted, attemptCount: 1, attempts: [attempt], lastAttemptAt: attempt.attemptedAt };
    expect(await replaceDelivery(attempted, next, '2026-11-22T11:01:01.000Z', [])).toBe(true);
    const before = await storedDeliveryItems();

    const batch = streamEvent(streamRecord('INSERT', { newImage: event }));
    const commands = await documentClientCommandsDuring(async () => {
      expect(await route(batch)).toEqual({ batchItemFailures: [] });
    });

    // The first transaction is cancelled naming both existing deliveries; the second writes the rest.
    expect(commands).toEqual(['QueryCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand']);
    const after = await storedDeliveryItems();
    expect(after).toHaveLength(6);
    for (const item of before) {
      expect(after.find((each) => each.webhookDeliveryId === item.webhookDeliveryId)).toEqual(item);
    }
    const added = after.filter((item) => !before.some((each) => each.SK === item.SK));
    expect(added.map((item) => item.webhookEndpointId).sort()).toEqual(
      endpoints
        .slice(2)
        .map((each) => each.webhookEndpointId)
        .sort(),
    );
    expect(added.every((item) => item.createdAt === now && item.attemptCount === 0)).toBe(true);

    // A second replay finds every delivery in place: one cancelled transaction, nothing written.
    const replayed = await documentClientCommandsDuring(async () => {
      expect(await route(batch)).toEqual({ batchItemFailures: [] });
    });
    expect(await storedDeliveryItems()).toEqual(expect.arrayContaining(after));
    expect(await storedDeliveryItems()).toHaveLength(6);
    expect(replayed).toEqual(['QueryCommand', 'TransactWriteItemsCommand']);
    // Each delivery is listed once under its event in GSI5: the existing ones kept their entries.
    const { Items: entries = [] } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI5',
        KeyConditionExpression: 'eventId = :event',
        FilterExpression: 'entityType = :delivery',
        ExpressionAttributeValues: { ':event': event.eventId, ':delivery': 'WebhookDelivery' },
      }),
    );
    expect(entries.map((entry) => String(entry.webhookDeliveryId)).sort()).toEqual(
      after.map((item) => item.webhookDeliveryId).sort(),
    );
  });

  it('writes the deliveries of every event of a stream batch together, and routes the other records', async () => {
    const subscribedToBoth = await Promise.all(
      Array.from({ length: 3 }, () => endpoint([EventType.invoicePaid, EventType.invoiceSent])),
    );
    const subscribedToSent = await endpoint([EventType.invoiceSent]);
    const paid = eventItem(EventType.invoicePaid);
    const sentEvent = eventItem(EventType.invoiceSent);
    const waiting = delivery();
    const batch = streamEvent(
      streamRecord('INSERT', { newImage: paid }),
      streamRecord('INSERT', { newImage: waiting }),
      streamRecord('INSERT', { newImage: sentEvent }),
    );

    const commands = await documentClientCommandsDuring(async () => {
      expect(await route(batch)).toEqual({ batchItemFailures: [] });
    });

    expect(writes(commands)).toEqual(['TransactWriteItemsCommand']);
    expect(sent.map(({ message }) => message.webhookDeliveryId)).toEqual([waiting.webhookDeliveryId]);
    const expected = [
      ...subscribedToBoth.map((each) => deliveryIdFor(paid.eventId, each.webhookEndpointId)),
      ...[...subscribedToBoth, subscribedToSent].map((each) =>
        deliveryIdFor(sentEvent.eventId, each.webhookEndpointId),
      ),
    ];
    const deliveries = await deliveriesInTable();
    expect(deliveries.map((each) => each.webhookDeliveryId).sort()).toEqual(expected.sort());
  });

  it('splits a batch’s deliveries into transactions of at most 100 actions, one per delivery', async () => {
    const endpoints = await Promise.all(Array.from({ length: 20 }, () => endpoint([EventType.invoicePaid])));
    const events = Array.from({ length: 6 }, () => eventItem(EventType.invoicePaid));

    const commands = await documentClientCommandsDuring(async () => {
      const records = events.map((event) => streamRecord('INSERT', { newImage: event }));
      expect(await route(streamEvent(...records))).toEqual({ batchItemFailures: [] });
    });

    // 120 deliveries to 20 endpoints: 80 a transaction (80 puts, 20 sequence Updates), then 40.
    expect(writes(commands)).toEqual(Array(2).fill('TransactWriteItemsCommand'));
    const expected = events.flatMap((event) =>
      endpoints.map((each) => deliveryIdFor(event.eventId, each.webhookEndpointId)),
    );
    const deliveries = await deliveriesInTable();
    expect(deliveries).toHaveLength(120);
    expect(deliveries.map((delivery) => delivery.webhookDeliveryId).sort()).toEqual(expected.sort());
  });

  it('writes the deliveries of earlier events before resuming an endpoint enabled again in the batch', async () => {
    const disabled = await endpoint([EventType.invoicePaid], 'disabled');
    const event = eventItem(EventType.invoicePaid);
    const oldImage = { ...disabled, entityType: EntityType.webhookEndpoint };

    await route(
      streamEvent(
        streamRecord('INSERT', { newImage: event }),
        streamRecord('MODIFY', { oldImage, newImage: { ...oldImage, status: 'active' } }),
      ),
    );

    const delivery = await getDelivery(
      disabled.webhookEndpointId,
      deliveryIdFor(event.eventId, disabled.webhookEndpointId),
      [],
    );
    expect(delivery?.paused).toBe(false);
  });

  it('reports the first event whose deliveries were not written when the write fails', async () => {
    await endpoint([EventType.invoicePaid]);
    const first = streamRecord('INSERT', { newImage: eventItem(EventType.invoicePaid) });
    const waiting = streamRecord('INSERT', { newImage: delivery() });
    // Its delivery would pass DynamoDB's 400 KB item limit, so the transaction is refused.
    const oversized = { ...eventItem(EventType.invoicePaid), payload: { note: 'x'.repeat(400 * 1024) } };
    const last = streamRecord('INSERT', { newImage: oversized });

    const result = await route(streamEvent(first, waiting, last));

    expect(result.batchItemFailures).toEqual([{ itemIdentifier: first.dynamodb?.SequenceNumber }]);
    expect(await deliveriesInTable()).toEqual([]);
  });
});

describe('router: deliveries', () => {
  it('enqueues a new delivery at once, and a paused one not at all', async () => {
    const fresh = delivery();
    await route(
      streamEvent(
        streamRecord('INSERT', { newImage: fresh }),
        streamRecord('INSERT', { newImage: delivery({ paused: true }) }),
      ),
    );
    expect(sent).toEqual([
      {
        message: {
          merchantId,
          shard: 0,
          webhookEndpointId: fresh.webhookEndpointId,
          webhookDeliveryId: fresh.webhookDeliveryId,
          attemptCount: 0,
        },
        delaySeconds: 0,
      },
    ]);
  });

  it('names the shard of the delivery’s item in its message', async () => {
    const fresh = delivery();
    const item = { ...fresh, ...keys.webhookDelivery(fresh.webhookEndpointId, fresh.webhookDeliveryId, 3) };
    await route(streamEvent(streamRecord('INSERT', { newImage: item })));
    expect(sent).toEqual([{ message: expect.objectContaining({ shard: 3 }), delaySeconds: 0 }]);
  });

  it('enqueues after a failed attempt with the queue default delay, and nothing once finished', async () => {
    const before = delivery();
    const failed = { ...before, attemptCount: 1 };
    await route(streamEvent(streamRecord('MODIFY', { oldImage: before, newImage: failed })));
    expect(sent).toEqual([
      { message: expect.objectContaining({ attemptCount: 1 }), delaySeconds: undefined },
    ]);
    sent.length = 0;
    await route(
      streamEvent(
        streamRecord('MODIFY', {
          oldImage: failed,
          newImage: { ...failed, attemptCount: 2, status: 'succeeded' },
        }),
      ),
    );
    await route(
      streamEvent(
        streamRecord('MODIFY', {
          oldImage: failed,
          newImage: { ...failed, attemptCount: 5, status: 'exhausted' },
        }),
      ),
    );
    expect(sent).toEqual([]);
  });

  it('enqueues at once when a delivery is un-paused', async () => {
    const paused = delivery({ paused: true, attemptCount: 2 });
    await route(
      streamEvent(streamRecord('MODIFY', { oldImage: paused, newImage: { ...paused, paused: false } })),
    );
    expect(sent).toEqual([{ message: expect.objectContaining({ attemptCount: 2 }), delaySeconds: 0 }]);
  });
});

describe('router: endpoints', () => {
  it('un-pauses the paused deliveries of an endpoint that is enabled again', async () => {
    const disabled = await endpoint([EventType.invoicePaid], 'disabled');
    const event = eventItem(EventType.invoicePaid);
    await route(streamEvent(streamRecord('INSERT', { newImage: event })));
    const deliveryId = deliveryIdFor(event.eventId, disabled.webhookEndpointId);
    expect((await getDelivery(disabled.webhookEndpointId, deliveryId, []))?.paused).toBe(true);
    const oldImage = { ...disabled, entityType: EntityType.webhookEndpoint };
    await route(
      streamEvent(streamRecord('MODIFY', { oldImage, newImage: { ...oldImage, status: 'active' } })),
    );
    expect((await getDelivery(disabled.webhookEndpointId, deliveryId, []))?.paused).toBe(false);
  });
});

describe('router: failures', () => {
  it('reports the first record it could not route, so it and the rest come again', async () => {
    process.env.TABLE_NAME = 'no-such-table';
    resetFunctionEnvironment();
    const first = streamRecord('INSERT', { newImage: eventItem(EventType.invoicePaid) });
    const second = streamRecord('INSERT', { newImage: eventItem(EventType.invoicePaid) });
    const result = await route(streamEvent(first, second));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: first.dynamodb?.SequenceNumber }]);
  });
});

describe('router: logs', () => {
  it('logs each event once its deliveries are written: the event, its type, the request that wrote it, the deliveries', async () => {
    const first = await endpoint([EventType.invoicePaid]);
    const second = await endpoint([EventType.invoicePaid]);
    const event = { ...eventItem(EventType.invoicePaid), requestId: 'request-7' };

    const lines = await printedJsonLinesDuring(() =>
      route(streamEvent(streamRecord('INSERT', { newImage: event }))),
    );

    const routed = lines.filter((line) => line.message === 'event routed');
    expect(routed).toEqual([
      expect.objectContaining({
        level: 'INFO',
        eventId: event.eventId,
        eventType: EventType.invoicePaid,
        merchantId,
        requestId: 'request-7',
      }),
    ]);
    expect((routed[0]?.deliveryIds as string[] | undefined)?.slice().sort()).toEqual(
      [
        deliveryIdFor(event.eventId, first.webhookEndpointId),
        deliveryIdFor(event.eventId, second.webhookEndpointId),
      ].sort(),
    );
  });

  it('logs no event as routed when its deliveries are not written, and names the record that comes again', async () => {
    await endpoint([EventType.invoicePaid]);
    const first = eventItem(EventType.invoicePaid);
    const oversized = { ...eventItem(EventType.invoicePaid), payload: { note: 'x'.repeat(400 * 1024) } };

    const lines = await printedJsonLinesDuring(() =>
      route(
        streamEvent(
          streamRecord('INSERT', { newImage: first }),
          streamRecord('INSERT', { newImage: oversized }),
        ),
      ),
    );

    expect(lines.filter((line) => line.message === 'event routed')).toEqual([]);
    expect(lines.filter((line) => line.message === 'stream record not routed')).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        eventId: first.eventId,
        merchantId,
        entityType: EntityType.event,
      }),
    ]);
  });
});

describe('router: delivery sequence', () => {
  /** The TransactWriteItems the router sent while `act` ran, each as its list of actions. */
  async function transactionsDuring(act: () => Promise<void>) {
    const transactions: Record<string, any>[][] = [];
    await withDocumentClientMiddleware(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand') transactions.push(args.input.TransactItems);
        return next(args);
      },
      act,
    );
    return transactions;
  }

  const sequenceUpdates = (transaction: Record<string, any>[]) =>
    transaction.filter((item) => item.Update?.Key?.SK?.startsWith(SortKeyPrefix.webhookDeliverySequence));

  async function lastSequence(webhookEndpointId: string) {
    const { Item } = await documentClient().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.webhookDeliverySequence(merchantId, webhookEndpointId),
        ConsistentRead: true,
      }),
    );
    return Item?.lastSequence;
  }

  /** The endpoint's deliveries as [eventId, sequence], in the order of their numbers. */
  async function numbersOf(webhookEndpointId: string) {
    return (await deliveriesInTable())
      .filter((each) => each.webhookEndpointId === webhookEndpointId)
      .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0))
      .map((each) => [each.eventId, each.sequence]);
  }

  it('numbers a batch’s deliveries to an endpoint consecutively, in event order, with one sequence write', async () => {
    const target = await endpoint([EventType.invoicePaid, EventType.invoiceSent]);
    const other = await endpoint([EventType.invoicePaid]);
    const events = [
      eventItem(EventType.invoicePaid),
      eventItem(EventType.invoiceSent),
      eventItem(EventType.invoicePaid),
      eventItem(EventType.invoiceSent),
    ];
    const batch = streamEvent(...events.map((event) => streamRecord('INSERT', { newImage: event })));

    const transactions = await transactionsDuring(async () => {
      expect(await route(batch)).toEqual({ batchItemFailures: [] });
    });

    expect(transactions).toHaveLength(1);
    const updates = sequenceUpdates(transactions[0] ?? []);
    expect(updates.map((update) => update.Update.Key.SK).sort()).toEqual(
      [target, other]
        .map((each) => keys.webhookDeliverySequence(merchantId, each.webhookEndpointId).SK)
        .sort(),
    );
    expect(await numbersOf(target.webhookEndpointId)).toEqual(
      events.map((event, index) => [event.eventId, index + 1]),
    );
    expect(await lastSequence(target.webhookEndpointId)).toBe(4);
    const paid = events.filter((event) => event.eventType === EventType.invoicePaid);
    expect(await numbersOf(other.webhookEndpointId)).toEqual(
      paid.map((event, index) => [event.eventId, index + 1]),
    );
    expect(await lastSequence(other.webhookEndpointId)).toBe(2);
  });

  it('continues from the endpoint’s last number in the next batch', async () => {
    const target = await endpoint([EventType.invoicePaid]);
    const first = eventItem(EventType.invoicePaid);
    const second = eventItem(EventType.invoicePaid);
    await route(streamEvent(streamRecord('INSERT', { newImage: first })));

    const commands = await documentClientCommandsDuring(async () => {
      await route(streamEvent(streamRecord('INSERT', { newImage: second })));
    });

    // The sequence is read with the endpoints: no read more than before, and one transaction.
    expect(commands).toEqual(['QueryCommand', 'TransactWriteItemsCommand']);
    expect(await numbersOf(target.webhookEndpointId)).toEqual([
      [first.eventId, 1],
      [second.eventId, 2],
    ]);
  });

  it('assigns no number on a replayed batch, whole or in part', async () => {
    const target = await endpoint([EventType.invoicePaid]);
    const events = Array.from({ length: 3 }, () => eventItem(EventType.invoicePaid));
    const records = events.map((event) => streamRecord('INSERT', { newImage: event }));
    await route(streamEvent(...records.slice(0, 2)));
    const before = await deliveriesInTable();

    await route(streamEvent(...records.slice(0, 2)));
    expect(await deliveriesInTable()).toEqual(expect.arrayContaining(before));
    expect(await lastSequence(target.webhookEndpointId)).toBe(2);

    // A batch that repeats two written events and adds one: only the new one takes a number.
    await route(streamEvent(...records));
    expect(await numbersOf(target.webhookEndpointId)).toEqual(
      events.map((event, index) => [event.eventId, index + 1]),
    );
    expect(await lastSequence(target.webhookEndpointId)).toBe(3);
  });

  it('keeps the sequence gapless and free of repeats when two routers and redeliveries write to the endpoint at once', async () => {
    const target = await endpoint([EventType.invoicePaid]);
    const other = createRouter({ queue: { send: async () => undefined }, now: () => new Date(now) });
    const events: ReturnType<typeof eventItem>[] = [];
    let redeliveries = 0;
    let resent = 0;
    for (let round = 0; round < 8; round += 1) {
      const mine = Array.from({ length: 1 + (round % 3) }, () => eventItem(EventType.invoicePaid));
      const theirs = Array.from({ length: 1 + ((round + 1) % 3) }, () => eventItem(EventType.invoicePaid));
      events.push(...mine, ...theirs);
      // Each router also repeats an event of the other's batch on odd rounds: a replay racing the write.
      const overlap = round % 2 === 1 && theirs[0] !== undefined ? [theirs[0]] : [];
      const original = (await deliveriesInTable()).find(
        (each) => each.webhookEndpointId === target.webhookEndpointId,
      );
      let results: unknown[] = [];
      const transactions = await transactionsDuring(async () => {
        results = await Promise.all([
          route(
            streamEvent(...[...mine, ...overlap].map((event) => streamRecord('INSERT', { newImage: event }))),
          ),
          other(streamEvent(...theirs.map((event) => streamRecord('INSERT', { newImage: event })))),
          ...(original === undefined ? [] : [redeliver(original)]),
        ]);
      });
      // More transactions than writers: some were cancelled by a moved sequence and numbered afresh.
      resent += transactions.length - (original === undefined ? 2 : 3);
      if (original !== undefined) redeliveries += 1;
      for (const result of results.slice(0, 2)) expect(result).toEqual({ batchItemFailures: [] });
    }

    const numbers = (await numbersOf(target.webhookEndpointId)).map(([, sequence]) => sequence);
    expect(numbers).toEqual(Array.from({ length: events.length + redeliveries }, (_, index) => index + 1));
    expect(await lastSequence(target.webhookEndpointId)).toBe(events.length + redeliveries);
    expect(resent).toBeGreaterThan(0);
  });

  /** A redelivery as the API makes it: the original read with the sequence, then committed with it. */
  async function redeliver(original: WebhookDelivery) {
    const { lastSequence: last } = await getEndpointWithDelivery(
      merchantId,
      original.webhookEndpointId,
      original.webhookDeliveryId,
    );
    const redelivery = redeliveryOf(original, newId('whkdel'), now);
    const idempotency = {
      key: newId('whkdel'),
      requestId: 'request-1',
      scopeHash: newId('whkdel'),
      fingerprint: 'fingerprint',
      now: new Date(now),
    };
    await commitNumberedDelivery(idempotency, redelivery, [], last, (numbered) => ({
      status: 201,
      body: deliveryView(numbered),
    }));
  }
});
