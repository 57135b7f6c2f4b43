import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFunctionEnvironment } from '../../../functions/config';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import { expiresAtOfEvent } from '../../../functions/domain/retention';
import { deliveryIdFor, newDelivery, recordAttempt } from '../../../functions/domain/webhook-delivery';
import { buildPutNewDelivery } from '../../../functions/store/webhook-deliveries';

beforeEach(() => {
  vi.stubEnv('TABLE_NAME', 'merchant-payments-test');
  vi.stubEnv('STAGE', 'sandbox');
  resetFunctionEnvironment();
  return () => {
    vi.unstubAllEnvs();
    resetFunctionEnvironment();
  };
});

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
  it('lists the delivery under its event (GSI2) and expires it with its event', () => {
    const { Item } = buildPutNewDelivery(delivery, delivery.createdAt, []);
    expect(Item).toMatchObject({
      GSI2PK: `EVENT#${eventId}#DELIVERIES`,
      GSI2SK: delivery.webhookDeliveryId,
      ttl: expiresAtOfEvent(eventId),
    });
  });

  it('keeps both on every later write of the delivery, as they follow from the delivery alone', () => {
    const attempted = recordAttempt(
      delivery,
      { statusCode: 500, durationMs: 3, errorMessage: 'HTTP 500', succeeded: false },
      '2026-11-22T12:00:01.000Z',
    );
    const { Item } = buildPutNewDelivery(attempted, '2026-11-22T12:01:01.000Z', []);
    expect(Item).toMatchObject({ GSI2SK: delivery.webhookDeliveryId, ttl: expiresAtOfEvent(eventId) });
  });
});
