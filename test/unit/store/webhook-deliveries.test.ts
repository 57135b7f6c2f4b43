import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import { expiresAtOfEvent } from '../../../functions/domain/retention';
import { deliveryIdFor, newDelivery, recordAttempt } from '../../../functions/domain/webhook-delivery';
import { EntityType, keys } from '../../../functions/store/keys';
import {
  buildCreateDelivery,
  buildNumberedTransaction,
  buildPutNewDelivery,
  deliveryKey,
  deliveryOfAction,
  groupNewDeliveries,
  type NewDelivery,
  toDelivery,
} from '../../../functions/store/webhook-deliveries';
import { buildAdvanceSequence, buildFanOutTargetsQuery } from '../../../functions/store/webhook-endpoints';
import { invoicePaidDelivery } from '../../support/stored-deliveries';
import { stubTableEnvironment } from '../../support/table-environment';

beforeEach(stubTableEnvironment);

const eventId = newId('evt');
const webhookEndpointId = newId('whk');
const delivery = newDelivery({
  webhookDeliveryId: deliveryIdFor(eventId, webhookEndpointId),
  webhookEndpointId,
  merchantId: 'mer_1',
  eventId,
  eventType: EventType.invoiceSent,
  data: { invoiceId: 'inv_1' },
  paused: false,
  now: '2026-11-22T12:00:00.000Z',
});

describe('buildPutNewDelivery', () => {
  it('expires the delivery with its event and gives it no event-log entry', () => {
    const { Item } = buildPutNewDelivery(delivery, delivery.createdAt, []);
    expect(Item).toMatchObject({ ttl: expiresAtOfEvent(eventId) });
    expect(Item).not.toHaveProperty('GSI2PK');
    expect(Item).not.toHaveProperty('GSI2SK');
  });

  it('stores no null field, which the delivery reads back as null', () => {
    const { Item } = buildPutNewDelivery(delivery, delivery.createdAt, []);
    expect(Object.entries(Item).filter(([, value]) => value === null)).toEqual([]);
    expect(Item).not.toHaveProperty('redeliveredFromId');
    expect(Item).not.toHaveProperty('lastAttemptAt');
    expect(toDelivery(Item)).toEqual(delivery);
  });

  it('keeps the expiry on every later write of the delivery, as it follows from the delivery alone', () => {
    const attempted = recordAttempt(
      delivery,
      { statusCode: 500, durationMs: 3, errorMessage: 'HTTP 500', succeeded: false },
      '2026-11-22T12:00:01.000Z',
    );
    const { Item } = buildPutNewDelivery(attempted, '2026-11-22T12:01:01.000Z', []);
    expect(Item).toMatchObject({ ttl: expiresAtOfEvent(eventId) });
  });
});

describe('buildCreateDelivery', () => {
  it('puts the delivery only where none exists, placed by its shard, with the eventId and createdAt that key its entry under its event in GSI5', () => {
    const history = [{ since: '2020-01-01T00:00:00.000Z', count: 16 }];
    const actions = buildCreateDelivery(delivery, delivery.createdAt, history);
    expect(actions).toHaveLength(1);
    const [{ Put }] = actions;
    expect(Put.ConditionExpression).toBe('attribute_not_exists(PK)');
    expect(Put.Item).toMatchObject({
      ...deliveryKey(webhookEndpointId, delivery.webhookDeliveryId, history),
      eventId,
      createdAt: delivery.createdAt,
      merchantId: 'mer_1',
      ttl: expiresAtOfEvent(eventId),
    });
  });
});

beforeEach(stubTableEnvironment);

const now = '2026-11-22T12:00:00.000Z';
const deliveryIds = Array.from({ length: 240 }, () => newId('whkdel'));
const eventIds = Array.from({ length: 240 }, () => newId('evt'));

function deliveryTo(webhookEndpointId: string, index: number): NewDelivery {
  return {
    shards: [],
    delivery: invoicePaidDelivery(
      { webhookDeliveryId: deliveryIds[index] ?? '', webhookEndpointId, eventId: eventIds[index] ?? '' },
      now,
    ),
  };
}

describe('buildNumberedTransaction', () => {
  it('puts each numbered delivery first, then one conditional sequence Update per endpoint', () => {
    const group = ['whk_a', 'whk_a', 'whk_b', 'whk_a'].map(deliveryTo);
    const { items } = buildNumberedTransaction(group, new Map([['whk_a', 4]]));
    const puts = items.slice(0, 4).map((item) => item.Put?.Item);
    expect(puts.map((item) => item?.sequence)).toEqual([5, 6, 1, 7]);
    expect(puts.map((item) => item?.webhookDeliveryId)).toEqual(
      group.map(({ delivery }) => delivery.webhookDeliveryId),
    );
    expect(items.slice(0, 4).map((item) => item.Put?.ConditionExpression)).toEqual(
      Array(4).fill('attribute_not_exists(PK)'),
    );
    expect(items.slice(4)).toEqual([
      buildAdvanceSequence({ merchantId: 'mer_1', webhookEndpointId: 'whk_a', from: 4, to: 7 }),
      buildAdvanceSequence({ merchantId: 'mer_1', webhookEndpointId: 'whk_b', from: 0, to: 1 }),
    ]);
  });
});

describe('deliveryOfAction', () => {
  it('names the delivery of each put, and none for a sequence Update', () => {
    expect([0, 1, 2, 3].map((index) => deliveryOfAction(index, 4))).toEqual([0, 1, 2, 3]);
    expect(deliveryOfAction(4, 4)).toBeUndefined();
  });
});

describe('buildAdvanceSequence', () => {
  it('moves the sequence only from the number it was read at, and returns the item when it moved', () => {
    const { Update } = buildAdvanceSequence({
      merchantId: 'mer_1',
      webhookEndpointId: 'whk_a',
      from: 4,
      to: 7,
    });
    expect(Update).toMatchObject({
      Key: keys.webhookDeliverySequence('mer_1', 'whk_a'),
      UpdateExpression: expect.stringContaining('SET lastSequence = :to'),
      ConditionExpression: 'lastSequence = :from',
      ExpressionAttributeValues: expect.objectContaining({
        ':from': 4,
        ':to': 7,
        ':entityType': EntityType.webhookDeliverySequence,
      }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  });

  it('starts a sequence only where none exists', () => {
    const { Update } = buildAdvanceSequence({
      merchantId: 'mer_1',
      webhookEndpointId: 'whk_a',
      from: 0,
      to: 2,
    });
    expect(Update.ConditionExpression).toBe('attribute_not_exists(lastSequence)');
    expect(Update.ExpressionAttributeValues).not.toHaveProperty(':from');
  });
});

describe('groupNewDeliveries', () => {
  it('counts each delivery’s put and each endpoint’s sequence Update against the 100 actions of a transaction', () => {
    const endpoints = Array.from({ length: 20 }, (_, index) => `whk_${index}`);
    const batch = Array.from({ length: 240 }, (_, index) => deliveryTo(endpoints[index % 20] ?? '', index));
    const groups = groupNewDeliveries(batch);
    // 80 deliveries (80 puts) and 20 sequence Updates fill a transaction.
    expect(groups.map((group) => group.length)).toEqual([80, 80, 80]);
    for (const group of groups) {
      const { items } = buildNumberedTransaction(group, new Map());
      expect(items.length).toBe(100);
    }
  });

  it('keeps a delivery named twice once', () => {
    const one = deliveryTo('whk_a', 1);
    expect(groupNewDeliveries([one, deliveryTo('whk_a', 2), one])).toEqual([[one, deliveryTo('whk_a', 2)]]);
  });
});

describe('buildFanOutTargetsQuery', () => {
  it('reads the endpoints and their sequences in one range of the merchant’s partition', () => {
    const query = buildFanOutTargetsQuery('mer_1');
    const { ':from': from, ':to': to } = query.ExpressionAttributeValues;
    const inRange = (sortKey: string) => sortKey >= from && sortKey <= to;
    expect(inRange(keys.webhookDeliverySequence('mer_1', 'whk_1').SK)).toBe(true);
    expect(inRange(keys.webhookEndpoint('mer_1', 'whk_1').SK)).toBe(true);
    expect(inRange(keys.webhookEndpointCounter('mer_1').SK)).toBe(false);
    expect(inRange(keys.merchant('mer_1').SK)).toBe(false);
    expect(inRange(keys.invoiceNumberCounter('mer_1').SK)).toBe(false);
    expect(query.ConsistentRead).toBe(true);
  });
});
