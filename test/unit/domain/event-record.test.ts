import { describe, expect, it } from 'vitest';
import { deliveryOrderFields, eventObjectId, eventRecordOf } from '../../../functions/domain/event-record';

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

describe('eventObjectId', () => {
  it('takes the item’s own objectId when it has one', () => {
    expect(eventObjectId({ ...stored, objectId: 'pmt_own' })).toBe('pmt_own');
  });

  it('falls back to the payload’s invoiceId, then paymentId, then payoutId', () => {
    expect(eventObjectId({ payload: { invoiceId: 'inv_1', paymentId: 'pmt_1' } })).toBe('inv_1');
    expect(eventObjectId({ payload: { paymentId: 'pmt_1', payoutId: 'po_1' } })).toBe('pmt_1');
    expect(eventObjectId({ payload: { payoutId: 'po_1' } })).toBe('po_1');
  });

  it('names the payment of a refund or a return, never the refund or return itself', () => {
    expect(eventObjectId(stored)).toBe('pmt_1');
    expect(eventObjectId({ payload: { returnId: 'ret_1', paymentId: 'pmt_2' } })).toBe('pmt_2');
  });

  it('is null when nothing names an object', () => {
    expect(eventObjectId({ payload: { merchantId: 'mer_1' } })).toBeNull();
    expect(eventObjectId({})).toBeNull();
    expect(eventObjectId({ payload: { invoiceId: 7 } })).toBeNull();
  });
});

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

describe('deliveryOrderFields', () => {
  it('is null for a delivery written without sequence or objectVersion', () => {
    expect(deliveryOrderFields({ webhookDeliveryId: 'whkdel_1' })).toEqual({
      sequence: null,
      objectVersion: null,
    });
  });

  it('carries the delivery’s sequence and objectVersion when present', () => {
    expect(deliveryOrderFields({ sequence: 12, objectVersion: 2 })).toEqual({
      sequence: 12,
      objectVersion: 2,
    });
  });
});
