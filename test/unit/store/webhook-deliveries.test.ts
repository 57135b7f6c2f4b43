import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import { expiresAtOfEvent } from '../../../functions/domain/retention';
import { deliveryIdFor, newDelivery, recordAttempt } from '../../../functions/domain/webhook-delivery';
import { deliveryKeyOfPointer } from '../../../functions/store/event-delivery-pointers';
import { EntityType } from '../../../functions/store/keys';
import {
  buildCreateDelivery,
  buildPutNewDelivery,
  deliveryKey,
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
  it('expires the delivery with its event and gives it no index entry under its event', () => {
    const { Item } = buildPutNewDelivery(delivery, delivery.createdAt, []);
    expect(Item).toMatchObject({ ttl: expiresAtOfEvent(eventId) });
    expect(Item).not.toHaveProperty('GSI2PK');
    expect(Item).not.toHaveProperty('GSI2SK');
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
  it('puts the delivery and, only where none exists, its pointer in its event’s partition', () => {
    const history = [{ since: '2020-01-01T00:00:00.000Z', count: 16 }];
    const [deliveryPut, pointerPut] = buildCreateDelivery(delivery, delivery.createdAt, history);
    expect(deliveryPut.Put.Item).toMatchObject(
      deliveryKey(webhookEndpointId, delivery.webhookDeliveryId, history),
    );
    expect(pointerPut.Put).toMatchObject({
      Item: {
        PK: `EVENT#${eventId}`,
        SK: `DELIVERY#${delivery.webhookDeliveryId}`,
        entityType: EntityType.eventDeliveryPointer,
        merchantId: 'mer_1',
        ttl: expiresAtOfEvent(eventId),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
    // The pointer alone gives the delivery's key: its shard under the endpoint's history.
    expect(deliveryKeyOfPointer(pointerPut.Put.Item)).toEqual(
      deliveryKey(webhookEndpointId, delivery.webhookDeliveryId, history),
    );
  });
});
