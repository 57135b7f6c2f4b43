import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import { expiresAtOfEvent } from '../../../functions/domain/retention';
import { deliveryIdFor, newDelivery, recordAttempt } from '../../../functions/domain/webhook-delivery';
import {
  buildCreateDelivery,
  buildPutNewDelivery,
  deliveryKey,
  toDelivery,
} from '../../../functions/store/webhook-deliveries';
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
