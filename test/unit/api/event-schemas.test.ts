import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { eventWebhooks } from '../../../functions/api/event-schemas';
import { newId } from '../../../functions/domain/ids';
import { subscribableEventTypes } from '../../../functions/domain/webhook-endpoint';
import { builtEvents, deliveredBodyOf, testDeliveryBodies } from '../../support/event-payloads';
import { eventPayloadFields } from '../../support/spec-fields';

const dataSchemaOf = (type: keyof typeof eventWebhooks) =>
  eventWebhooks[type].delivery.def.shape.data as z.ZodMiniObject;

/** The problems zod finds with `value` under `schema`, as `path: message` (none: []). */
function problemsOf(schema: z.ZodMiniType, value: unknown): string[] {
  const result = z.safeParse(schema, value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.code}`);
}

describe('eventWebhooks', () => {
  it('describes every subscribable event type, and nothing else', () => {
    expect(Object.keys(eventWebhooks)).toEqual(subscribableEventTypes);
  });

  it.each(subscribableEventTypes)('gives the data of %s exactly the fields the guide lists', (type) => {
    expect(Object.keys(dataSchemaOf(type).def.shape).sort()).toEqual(eventPayloadFields[type]);
  });

  it.each(Object.entries(builtEvents()))('takes the delivery body of %s, strictly', (_what, event) => {
    expect(problemsOf(eventWebhooks[event.eventType].delivery, deliveredBodyOf(event))).toEqual([]);
  });

  it.each(testDeliveryBodies())('takes the sample body of a test delivery of $type', ({ type, body }) => {
    expect(problemsOf(eventWebhooks[type as keyof typeof eventWebhooks].delivery, body)).toEqual([]);
  });

  it('refuses a payload with a field beyond the documented ones, or without one of them', () => {
    const [created] = Object.values(builtEvents());
    if (created === undefined) throw new Error('no event built');
    const schema = dataSchemaOf(created.eventType);
    expect(problemsOf(schema, { ...created.payload, extra: 1 })).toEqual([': unrecognized_keys']);
    const { occurredAt: _dropped, ...partial } = created.payload;
    expect(problemsOf(schema, partial)).toEqual(['occurredAt: invalid_type']);
  });

  it('refuses a body of one type under another type, or an id of the wrong kind', () => {
    const events = Object.values(builtEvents());
    const created = events.find((event) => event.eventType === 'payments.PaymentCreated');
    if (created === undefined) throw new Error('no PaymentCreated built');
    const body = deliveredBodyOf(created) as { data: Record<string, unknown> };
    expect(problemsOf(eventWebhooks['payments.PaymentDeclined'].delivery, body)).toContain(
      'type: invalid_value',
    );
    const foreign = { ...body, data: { ...body.data, paymentId: newId('refund') } };
    expect(problemsOf(eventWebhooks['payments.PaymentCreated'].delivery, foreign)).toEqual([
      'data.paymentId: invalid_format',
    ]);
  });

  it('lets priceId be null, as for the payment of an invoice, and nothing else of PaymentCreated', () => {
    const schema = dataSchemaOf('payments.PaymentCreated');
    const nullable = Object.keys(schema.def.shape).filter(
      (field) => z.safeParse(schema.def.shape[field] as z.ZodMiniType, null).success,
    );
    expect(nullable).toEqual(['priceId']);
  });

  it('takes an amount of 0 only where the domain makes one: an invoice of total 0, a payout, a return', () => {
    const takesZero = subscribableEventTypes.flatMap((type) => {
      const shape = dataSchemaOf(type).def.shape;
      return Object.keys(shape)
        .filter((field) => /amount$/i.test(field))
        .filter((field) => z.safeParse(shape[field] as z.ZodMiniType, 0).success)
        .map((field) => `${type} ${field}`);
    });
    expect(takesZero).toEqual([
      'payments.PaymentReturned returnedAmount',
      'payouts.PayoutCreated grossAmount',
      'payouts.PayoutCreated feeAmount',
      'payouts.PayoutCreated netAmount',
      'invoices.InvoicePaid amount',
    ]);
  });
});
