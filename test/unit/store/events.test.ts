import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import { inShard } from '../../../functions/domain/merchant-shards';
import { expiresAtOfEvent } from '../../../functions/domain/retention';
import { buildEventLogQueries, buildPutEvent } from '../../../functions/store/events';
import { EntityType, keys } from '../../../functions/store/keys';
import { stubTableEnvironment } from '../../support/table-environment';

beforeEach(stubTableEnvironment);

const eventId = newId('evt');
const createdAt = '2026-11-22T12:00:00.000Z';
const sentEvent = (invoiceId: string) => ({
  eventId,
  eventType: EventType.invoiceSent,
  merchantId: 'mer_1',
  payload: { invoiceId, merchantId: 'mer_1', resend: false },
  createdAt,
  objectId: invoiceId,
  objectVersion: 1,
});

describe('buildPutEvent', () => {
  it('keeps the writing request’s id and the event’s object beside the event, never inside the payload a delivery sends', () => {
    const payload = { invoiceId: 'inv_1', merchantId: 'mer_1', resend: false };
    const { Put } = buildPutEvent(
      {
        eventId,
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
      eventId,
      requestId: 'request-1',
      entityType: EntityType.event,
      objectId: 'inv_1',
      objectVersion: 3,
    });
    expect(Put.Item.payload).toEqual(payload);
    expect(Put.Item.payload).not.toHaveProperty('requestId');
    expect(Put.Item.payload).not.toHaveProperty('objectVersion');
  });

  it('indexes the event in the merchant’s log, its type’s and its object’s, by createdAt then id', () => {
    const invoiceId = newId('inv');
    const { Put } = buildPutEvent(sentEvent(invoiceId), 'request-1');
    const position = `${createdAt}#${eventId}`;
    expect(Put.Item).toMatchObject({
      GSI1PK: 'MERCHANT#mer_1#EVENTS',
      GSI1SK: position,
      GSI2PK: 'MERCHANT#mer_1#EVENTS#invoices.InvoiceSent',
      GSI2SK: position,
      GSI4PK: `MERCHANT#mer_1#OBJECT#${invoiceId}#EVENTS#invoices.InvoiceSent`,
      GSI4SK: position,
    });
  });

  it('keeps the events an object has once each in its object’s partition, and its repeated type in its own', () => {
    const invoice = newId('inv');
    const payment = newId('pmt');
    const payout = newId('po');
    const partitionOf = (eventType: string, objectId: string) =>
      keys.eventIndexes({ merchantId: 'mer_1', eventType, eventId, createdAt, objectId }).GSI4PK;
    expect(partitionOf(EventType.invoicePaid, invoice)).toBe(`MERCHANT#mer_1#OBJECT#${invoice}#EVENTS`);
    expect(partitionOf(EventType.invoiceSent, invoice)).toBe(
      `MERCHANT#mer_1#OBJECT#${invoice}#EVENTS#invoices.InvoiceSent`,
    );
    for (const once of [EventType.paymentCreated, EventType.paymentDeclined, EventType.paymentReturned]) {
      expect(partitionOf(once, payment)).toBe(`MERCHANT#mer_1#OBJECT#${payment}#EVENTS`);
    }
    expect(partitionOf(EventType.paymentRefunded, payment)).toBe(
      `MERCHANT#mer_1#OBJECT#${payment}#EVENTS#payments.PaymentRefunded`,
    );
    expect(partitionOf(EventType.payoutCreated, payout)).toBe(`MERCHANT#mer_1#OBJECT#${payout}#EVENTS`);
  });

  it('places the merchant’s and the type’s entries in the write shard of the object', () => {
    const invoiceId = inShard(newId('inv'), 5);
    const { Put } = buildPutEvent(sentEvent(invoiceId), 'request-1');
    expect(Put.Item.GSI1PK).toBe('MERCHANT#mer_1#S5#EVENTS');
    expect(Put.Item.GSI2PK).toBe('MERCHANT#mer_1#S5#EVENTS#invoices.InvoiceSent');
    expect(Put.Item).toMatchObject({
      GSI4PK: `MERCHANT#mer_1#OBJECT#${invoiceId}#EVENTS#invoices.InvoiceSent`,
    });
  });

  it('expires the event 90 days after its id was minted', () => {
    const { Put } = buildPutEvent(sentEvent(newId('inv')), 'request-1');
    expect(Put.Item.ttl).toBe(expiresAtOfEvent(eventId));
  });
});

describe('buildEventLogQueries', () => {
  const now = new Date('2026-11-25T00:00:00.000Z');
  const twoShards = [{ since: '2026-06-01T00:00:00.000Z', count: 2 }];

  it('reads the merchant’s log once per write shard in force, newest first, never past retention', () => {
    const { queries, sortKey } = buildEventLogQueries('mer_1', twoShards, {}, undefined, now);
    expect(sortKey).toBe('GSI1SK');
    expect(
      queries.map((query) => [query.IndexName, query.ExpressionAttributeValues?.[':partition']]),
    ).toEqual([
      ['GSI1', 'MERCHANT#mer_1#EVENTS'],
      ['GSI1', 'MERCHANT#mer_1#S1#EVENTS'],
    ]);
    expect(queries[0]).toMatchObject({ ScanIndexForward: false });
    // 90 days and an hour of slack before now; the ttl filter drops the expired ones in between.
    expect(queries[0]?.ExpressionAttributeValues?.[':low']).toBe('2026-08-26T23:00:00.000Z#');
    expect(queries[0]?.ExpressionAttributeValues?.[':now']).toBe(now.getTime() / 1000);
  });

  it('makes an inclusive created range a key range, to the millisecond', () => {
    const { queries } = buildEventLogQueries(
      'mer_1',
      [],
      { createdFrom: '2026-11-01T00:00:00Z', createdTo: '2026-11-02T00:00:00.500Z' },
      undefined,
      now,
    );
    expect(queries[0]?.ExpressionAttributeValues).toMatchObject({
      ':low': '2026-11-01T00:00:00.000Z#',
      ':high': '2026-11-02T00:00:00.500Z#~',
    });
  });

  it('sends no Query for a created range that ends before retention keeps anything', () => {
    for (const createdTo of ['0000-11-01T00:00:00Z', '2026-08-26T22:59:59.999Z']) {
      expect(buildEventLogQueries('mer_1', twoShards, { createdTo }, undefined, now).queries).toEqual([]);
    }
    // The first instant retention keeps is still read.
    const kept = buildEventLogQueries('mer_1', [], { createdTo: '2026-08-26T23:00:00.000Z' }, undefined, now);
    expect(kept.queries).toHaveLength(1);
  });

  it('reads the type’s partitions for a type, and the partition of the object’s events that holds a type', () => {
    const byType = buildEventLogQueries(
      'mer_1',
      twoShards,
      { type: EventType.payoutCreated },
      undefined,
      now,
    );
    expect(byType.queries.map((query) => query.ExpressionAttributeValues?.[':partition'])).toEqual([
      'MERCHANT#mer_1#EVENTS#payouts.PayoutCreated',
      'MERCHANT#mer_1#S1#EVENTS#payouts.PayoutCreated',
    ]);
    const objectId = newId('pmt');
    const both = buildEventLogQueries(
      'mer_1',
      twoShards,
      { objectId, type: EventType.paymentRefunded },
      undefined,
      now,
    );
    expect(both.sortKey).toBe('GSI4SK');
    expect(both.queries).toHaveLength(1);
    expect(both.queries[0]).toMatchObject({
      IndexName: 'GSI4',
      FilterExpression: '(attribute_not_exists(#ttl) OR #ttl > :now)',
    });
    expect(both.queries[0]?.ExpressionAttributeValues).toMatchObject({
      ':partition': `MERCHANT#mer_1#OBJECT#${objectId}#EVENTS#payments.PaymentRefunded`,
    });
    const once = buildEventLogQueries(
      'mer_1',
      twoShards,
      { objectId, type: EventType.paymentReturned },
      undefined,
      now,
    );
    expect(once.queries).toHaveLength(1);
    expect(once.queries[0]).toMatchObject({
      FilterExpression: '(attribute_not_exists(#ttl) OR #ttl > :now) AND eventType = :type',
    });
    expect(once.queries[0]?.ExpressionAttributeValues).toMatchObject({
      ':partition': `MERCHANT#mer_1#OBJECT#${objectId}#EVENTS`,
      ':type': EventType.paymentReturned,
    });
    const all = buildEventLogQueries('mer_1', twoShards, { objectId }, undefined, now);
    expect(all.queries.map((query) => query.ExpressionAttributeValues?.[':partition'])).toEqual([
      `MERCHANT#mer_1#OBJECT#${objectId}#EVENTS`,
      `MERCHANT#mer_1#OBJECT#${objectId}#EVENTS#payments.PaymentRefunded`,
    ]);
  });

  it('goes on below the cursor in every shard, and reads only the shards in force at its event', () => {
    const position = `2026-05-01T00:00:00.000Z#${eventId}`;
    const { queries } = buildEventLogQueries('mer_1', twoShards, {}, { position }, now);
    expect(queries).toHaveLength(1);
    expect(queries[0]?.ExclusiveStartKey).toEqual({
      PK: `EVENT#${eventId}`,
      SK: 'EVENT',
      GSI1PK: 'MERCHANT#mer_1#EVENTS',
      GSI1SK: position,
    });
  });
});
