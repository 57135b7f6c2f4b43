import { describe, expect, it } from 'vitest';
import { EventType } from '../../../functions/domain/invoice';
import { newDelivery, recordAttempt } from '../../../functions/domain/webhook-delivery';
import { restartDelaySeconds } from '../../../tools/local/requeue-waiting-deliveries';

const now = new Date('2026-11-22T12:00:00.000Z');
const at = (secondsFromNow: number) => new Date(now.getTime() + secondsFromNow * 1000).toISOString();

const fresh = newDelivery({
  webhookDeliveryId: 'whkdel_01jzb8bx3y4z5a6b7c8d9e0f1g',
  webhookEndpointId: 'whk_01jzb8bx3y4z5a6b7c8d9e0f1g',
  merchantId: 'mer_01jzb8bx3y4z5a6b7c8d9e0f1g',
  eventId: 'evt_01jzb8bx3y4z5a6b7c8d9e0f1g',
  eventType: EventType.invoicePaid,
  data: {},
  paused: false,
  now: at(-600),
});

/** The delivery after one failed attempt that started `startedSecondsAgo` and lasted `durationMs`. */
function failedOnce(startedSecondsAgo: number, durationMs: number) {
  const outcome = { statusCode: 500, durationMs, errorMessage: 'HTTP 500', succeeded: false };
  return recordAttempt(fresh, outcome, at(-startedSecondsAgo));
}

describe('restartDelaySeconds', () => {
  it('is 0 for a delivery whose attempt was due before the start, however long ago', () => {
    expect(restartDelaySeconds({ delivery: fresh, dueAt: at(-600) }, now, 60)).toBe(0);
    expect(restartDelaySeconds({ delivery: failedOnce(61, 0), dueAt: at(-1) }, now, 60)).toBe(0);
  });

  it('waits until the stored due time, rounded up to whole seconds, when the retry delay is unchanged', () => {
    const delivery = failedOnce(20, 500);

    expect(restartDelaySeconds({ delivery, dueAt: at(40.5) }, now, 60)).toBe(41);
  });

  it('counts a shorter retry delay from the end of the last attempt', () => {
    const delivery = failedOnce(20, 3_000);

    expect(restartDelaySeconds({ delivery, dueAt: at(883) }, now, 30)).toBe(13);
    expect(restartDelaySeconds({ delivery, dueAt: at(883) }, now, 1)).toBe(0);
  });

  it('keeps the stored due time when the retry delay is now longer', () => {
    const delivery = failedOnce(20, 0);

    expect(restartDelaySeconds({ delivery, dueAt: at(40) }, now, 900)).toBe(40);
  });

  it('keeps the stored due time of a delivery never attempted (new, resumed or redelivered)', () => {
    expect(restartDelaySeconds({ delivery: fresh, dueAt: at(5) }, now, 1)).toBe(5);
  });

  it('waits a second past the lease of an attempt that was in flight when the last runtime was killed', () => {
    expect(restartDelaySeconds({ delivery: fresh, dueAt: at(-30), leaseUntil: at(21.2) }, now, 60)).toBe(23);
    expect(restartDelaySeconds({ delivery: fresh, dueAt: at(40), leaseUntil: at(10) }, now, 60)).toBe(40);
    // A lease that ran out already holds nothing back.
    expect(restartDelaySeconds({ delivery: fresh, dueAt: at(-30), leaseUntil: at(-5) }, now, 60)).toBe(0);
  });

  it('never asks for more than the queue allows (900 s)', () => {
    expect(restartDelaySeconds({ delivery: fresh, dueAt: at(3_600) }, now, 60)).toBe(900);
  });

  it('sends at once a delivery whose stored due time cannot be read', () => {
    expect(restartDelaySeconds({ delivery: failedOnce(20, 0), dueAt: 'undefined' }, now, 900)).toBe(0);
  });
});
