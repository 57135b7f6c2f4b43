import { describe, expect, it } from 'vitest';
import { typeIdBound } from '../../../functions/domain/id-time-bounds';
import { expiresAtOfEvent, isExpired } from '../../../functions/domain/retention';

describe('expiresAtOfEvent', () => {
  it('is 90 days after the second the event id was minted, in epoch seconds', () => {
    const minted = new Date('2026-03-01T10:00:00.750Z');
    const eventId = typeIdBound('evt', minted, 'lowest');
    expect(expiresAtOfEvent(eventId)).toBe(Date.parse('2026-05-30T10:00:00.000Z') / 1000);
  });
});

describe('isExpired', () => {
  const ttl = Date.parse('2026-05-30T10:00:00.000Z') / 1000;

  it('holds from the ttl’s instant on, whether or not DynamoDB has deleted the item', () => {
    expect(isExpired({ ttl }, new Date('2026-05-30T09:59:59.999Z'))).toBe(false);
    expect(isExpired({ ttl }, new Date('2026-05-30T10:00:00.000Z'))).toBe(true);
  });

  it('never holds for an item without a ttl', () => {
    expect(isExpired({}, new Date('2100-01-01T00:00:00.000Z'))).toBe(false);
  });
});
