import { describe, expect, it } from 'vitest';
import { eventRecordOf } from '../../../functions/domain/event-record';

const stored = {
  PK: 'EVENT#evt_1',
  SK: 'EVENT',
  eventId: 'evt_1',
  eventType: 'payments.PaymentRefunded',
  merchantId: 'mer_1',
  payload: {
    refundId: 'refund_1',
    paymentId: 'pmt_1',
    refundedAmount: 500,
    occurredAt: '2026-01-01T00:00:00.000Z',
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  requestId: 'request-1',
  ttl: 1,
};

describe('eventRecordOf', () => {
  it('shows the payload exactly as data, and null objectVersion for an item without one', () => {
    expect(eventRecordOf(stored)).toEqual({
      eventId: 'evt_1',
      type: 'payments.PaymentRefunded',
      createdAt: '2026-01-01T00:00:00.000Z',
      objectId: 'pmt_1',
      objectVersion: null,
      data: stored.payload,
    });
  });

  it('shows the item’s own objectId and objectVersion when it has them', () => {
    const record = eventRecordOf({ ...stored, objectId: 'pmt_9', objectVersion: 3 });
    expect({ objectId: record.objectId, objectVersion: record.objectVersion }).toEqual({
      objectId: 'pmt_9',
      objectVersion: 3,
    });
  });
});
