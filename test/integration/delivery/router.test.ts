import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetFunctionEnvironment } from '../../../functions/config';
import type { DeliveryMessage } from '../../../functions/delivery/delivery-message';
import { createRouter } from '../../../functions/delivery/router';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import { deliveryIdFor, newDelivery } from '../../../functions/domain/webhook-delivery';
import { newWebhookEndpoint, type WebhookEndpoint } from '../../../functions/domain/webhook-endpoint';
import { documentClient, tableName } from '../../../functions/store/client';
import { EntityType, keys } from '../../../functions/store/keys';
import { getDelivery, toDelivery } from '../../../functions/store/webhook-deliveries';
import { buildPutNewEndpoint } from '../../../functions/store/webhook-endpoints';
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

async function endpoint(eventTypes: EventType[], status: WebhookEndpoint['status'] = 'active') {
  const created = {
    ...newWebhookEndpoint({
      webhookEndpointId: newId('whk'),
      merchantId,
      url: 'https://hooks.example.com/x',
      eventTypes,
      now,
    }),
    status,
  };
  await documentClient().send(new PutCommand(buildPutNewEndpoint(created, 'sealed').Put));
  return created;
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

  it('makes no delivery for a merchant without endpoints', async () => {
    await route(streamEvent(streamRecord('INSERT', { newImage: eventItem(EventType.invoiceSent) })));
    expect(await deliveriesInTable()).toEqual([]);
  });
});

describe('router: deliveries', () => {
  const delivery = (overrides: Record<string, unknown> = {}) => ({
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
  });

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
          webhookEndpointId: fresh.webhookEndpointId,
          webhookDeliveryId: fresh.webhookDeliveryId,
          attemptCount: 0,
        },
        delaySeconds: 0,
      },
    ]);
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
    expect((await getDelivery(disabled.webhookEndpointId, deliveryId))?.paused).toBe(true);
    const oldImage = { ...disabled, entityType: EntityType.webhookEndpoint };
    await route(
      streamEvent(streamRecord('MODIFY', { oldImage, newImage: { ...oldImage, status: 'active' } })),
    );
    expect((await getDelivery(disabled.webhookEndpointId, deliveryId))?.paused).toBe(false);
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
