import { describe, expect, it } from 'vitest';
import { isTypeId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import { samplePayload, testDeliveryOf } from '../../../functions/domain/test-delivery';
import { deliveryView, redeliveryOf } from '../../../functions/domain/webhook-delivery';
import { subscribableEventTypes } from '../../../functions/domain/webhook-endpoint';
import { signedDelivery } from '../../../functions/domain/webhook-signature';
import { eventPayloadFields } from '../../support/spec-fields';

const merchantId = 'mer_01jq3v7y8k2m4n6p8r0s2t4v6w';
const now = '2026-11-25T12:00:00.000Z';
const secret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';

/** The id fields of the documented payloads and the prefix each carries. */
const idPrefixes = {
  paymentId: 'pmt',
  paymentInstrumentId: 'pmi',
  priceId: 'price',
  customerId: 'cust',
  refundId: 'refund',
  returnId: 'ret',
  payoutId: 'po',
  payoutAccountId: 'pacct',
  invoiceId: 'inv',
} as const;

describe('samplePayload', () => {
  it.each(subscribableEventTypes)('%s has exactly the documented fields of its type', (eventType) => {
    const payload = samplePayload(eventType, merchantId, now);
    expect(Object.keys(payload).sort()).toEqual(eventPayloadFields[eventType]);
    expect(payload.merchantId).toBe(merchantId);
    for (const [field, value] of Object.entries(payload)) {
      const prefix = idPrefixes[field as keyof typeof idPrefixes];
      if (prefix !== undefined) expect(isTypeId(String(value), prefix), `${field} ${value}`).toBe(true);
      if (field === 'occurredAt' || field === 'paidAt') expect(value).toBe(now);
      if (/amount$/i.test(field)) expect(Number.isSafeInteger(value) && (value as number) > 0).toBe(true);
    }
  });

  it('mints fresh ids for every call', () => {
    const first = samplePayload(EventType.paymentCreated, merchantId, now);
    const second = samplePayload(EventType.paymentCreated, merchantId, now);
    expect(first.paymentId).not.toBe(second.paymentId);
  });
});

describe('testDeliveryOf', () => {
  const delivery = testDeliveryOf({
    webhookEndpointId: 'whk_01jq3v7y8k2m4n6p8r0s2t4v6w',
    merchantId,
    eventType: EventType.invoicePaid,
    now,
  });

  it('is a pending, unnumbered delivery of a fresh evt_ id, marked as a test', () => {
    expect(isTypeId(delivery.eventId, 'evt')).toBe(true);
    expect(isTypeId(delivery.webhookDeliveryId, 'whkdel')).toBe(true);
    expect(delivery).toMatchObject({
      status: 'pending',
      attemptCount: 0,
      sequence: null,
      objectVersion: null,
      redeliveredFromId: null,
      paused: false,
      test: true,
      createdAt: now,
    });
    expect(deliveryView(delivery).test).toBe(true);
  });

  it('is sent with Merchant-Webhook-Test: true, outside the signed content; other deliveries without it', () => {
    const test = signedDelivery({ ...delivery, sequence: 4 }, secret, 1700000000);
    const plain = signedDelivery({ ...delivery, sequence: 4, test: undefined }, secret, 1700000000);
    expect(test.body).toBe(plain.body);
    expect(test.headers).toStrictEqual({ ...plain.headers, 'Merchant-Webhook-Test': 'true' });
    expect(plain.headers).not.toHaveProperty('Merchant-Webhook-Test');
  });

  it('stays a test when redelivered', () => {
    expect(redeliveryOf(delivery, 'whkdel_01jq3v7y8k2m4n6p8r0s2t4v6x', now).test).toBe(true);
  });
});
