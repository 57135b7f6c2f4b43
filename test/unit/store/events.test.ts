import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFunctionEnvironment } from '../../../functions/config';
import { EventType } from '../../../functions/domain/invoice';
import { buildPutEvent } from '../../../functions/store/events';
import { EntityType } from '../../../functions/store/keys';

beforeEach(() => {
  vi.stubEnv('TABLE_NAME', 'merchant-payments-test');
  vi.stubEnv('STAGE', 'sandbox');
  resetFunctionEnvironment();
  return () => {
    vi.unstubAllEnvs();
    resetFunctionEnvironment();
  };
});

describe('buildPutEvent', () => {
  it('keeps the writing request’s id and the event’s object beside the event, never inside the payload a delivery sends', () => {
    const payload = { invoiceId: 'inv_1', merchantId: 'mer_1', resend: false };
    const { Put } = buildPutEvent(
      {
        eventId: 'evt_1',
        eventType: EventType.invoiceSent,
        merchantId: 'mer_1',
        payload,
        createdAt: '2026-11-22T12:00:00.000Z',
        objectId: 'inv_1',
        objectVersion: 3,
      },
      'request-1',
    );
    expect(Put.Item).toMatchObject({
      eventId: 'evt_1',
      requestId: 'request-1',
      entityType: EntityType.event,
      objectId: 'inv_1',
      objectVersion: 3,
    });
    expect(Put.Item.payload).toEqual(payload);
    expect(Put.Item.payload).not.toHaveProperty('requestId');
    expect(Put.Item.payload).not.toHaveProperty('objectVersion');
  });
});
