import { describe, expect, it } from 'vitest';
import {
  healthChangeAfter,
  recentSuccessMs,
  shownByDeliveries,
  successRefreshMs,
  unansweredReason,
  withHealthChange,
} from '../../../functions/domain/endpoint-health';
import { EventType } from '../../../functions/domain/invoice';
import { newWebhookEndpoint, type WebhookEndpoint } from '../../../functions/domain/webhook-endpoint';

const base = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (offsetMs: number) => new Date(base + offsetMs).toISOString();
const at = (offsetMs: number) => new Date(base + offsetMs);

const fresh: WebhookEndpoint = newWebhookEndpoint({
  webhookEndpointId: 'whk_1',
  merchantId: 'mer_1',
  url: 'https://hooks.example.com/x',
  eventTypes: [EventType.invoiceSent],
  now: iso(0),
});

describe('healthChangeAfter', () => {
  it('records the first success and the first failure of an endpoint never attempted', () => {
    expect(healthChangeAfter(fresh, true, at(5))).toEqual({ kind: 'succeeded', at: iso(5) });
    expect(healthChangeAfter(fresh, false, at(5))).toEqual({ kind: 'failing', at: iso(5) });
  });

  it('refreshes the last success only once it is 5 minutes old', () => {
    const healthy = { ...fresh, lastSucceededAt: iso(0) };
    expect(healthChangeAfter(healthy, true, at(successRefreshMs - 1))).toBeUndefined();
    expect(healthChangeAfter(healthy, true, at(successRefreshMs))).toEqual({
      kind: 'succeeded',
      at: iso(successRefreshMs),
    });
  });

  it('ends a failing run with any success, and changes nothing on the failures within it', () => {
    const failing = { ...fresh, lastSucceededAt: iso(0), failingSince: iso(10) };
    expect(healthChangeAfter(failing, true, at(11))).toEqual({ kind: 'succeeded', at: iso(11) });
    expect(healthChangeAfter(failing, false, at(11))).toBeUndefined();
  });

  it('never disables an endpoint, however long every attempt has failed', () => {
    const day = 24 * 60 * 60 * 1000;
    const failing = { ...fresh, failingSince: iso(10) };
    for (const days of [1, 5, 6, 30, 89])
      expect(healthChangeAfter(failing, false, at(10 + days * day), '5d')).toBeUndefined();
    expect(withHealthChange(failing, { kind: 'failing', at: iso(90 * day) }).status).toBe('active');
    expect(withHealthChange(failing, { kind: 'noticed', at: iso(5 * day), after: '5d' })).toEqual(failing);
  });

  it('calls for a notice at a day and at five days into a failing run, each once, the longer first', () => {
    const day = 24 * 60 * 60 * 1000;
    const failing = { ...fresh, failingSince: iso(10) };
    const change = (offsetMs: number, noticed?: '24h' | '5d') =>
      healthChangeAfter(failing, false, at(10 + offsetMs), noticed);
    expect(change(day - 1)).toBeUndefined();
    expect(change(day)).toEqual({ kind: 'noticed', at: iso(10 + day), after: '24h' });
    expect(change(day, '24h')).toBeUndefined();
    expect(change(5 * day - 1, '24h')).toBeUndefined();
    expect(change(5 * day, '24h')).toEqual({ kind: 'noticed', at: iso(10 + 5 * day), after: '5d' });
    // A run whose first failure past a day comes at six days sends the five-day notice alone.
    expect(change(6 * day)).toEqual({ kind: 'noticed', at: iso(10 + 6 * day), after: '5d' });
    expect(change(6 * day, '5d')).toBeUndefined();
    // A success ends the run, whatever it was told.
    expect(healthChangeAfter(failing, true, at(10 + 6 * day), '5d')).toEqual({
      kind: 'succeeded',
      at: iso(10 + 6 * day),
    });
  });
});

describe('withHealthChange', () => {
  it('shows each change on the endpoint as the API does', () => {
    const failing = withHealthChange(fresh, { kind: 'failing', at: iso(1) });
    expect(failing).toEqual({ ...fresh, failingSince: iso(1) });
    expect(withHealthChange(failing, { kind: 'succeeded', at: iso(2) })).toEqual({
      ...fresh,
      lastSucceededAt: iso(2),
    });
  });
});

describe('unansweredReason', () => {
  it('is none while the latest attempt succeeded within the hour, and names why otherwise', () => {
    const healthy = { ...fresh, lastSucceededAt: iso(0) };
    expect(unansweredReason(healthy, at(recentSuccessMs))).toBeUndefined();
    expect(unansweredReason(healthy, at(recentSuccessMs + 1))).toBe(
      `its last successful attempt was at ${iso(0)}, more than an hour ago`,
    );
    expect(unansweredReason({ ...healthy, failingSince: iso(1) }, at(2))).toBe(
      `every attempt since ${iso(1)} failed`,
    );
    expect(unansweredReason(fresh, at(0))).toBe('no attempt to its url has succeeded yet');
  });
});

describe('shownByDeliveries', () => {
  const changed = { ...fresh, updatedAt: iso(100) };
  const attempt = (offsetMs: number, errorMessage: string | null = null) => ({
    attemptedAt: iso(offsetMs),
    errorMessage,
  });
  const delivery = (
    attempts: { attemptedAt: string; errorMessage: string | null }[],
    leaseUntil?: string,
  ) => ({
    status: 'pending',
    paused: false,
    attempts,
    ...(leaseUntil === undefined ? {} : { leaseUntil }),
  });

  it('takes a success the endpoint does not show yet: the latest attempt, after its last change, within the hour', () => {
    expect(shownByDeliveries(changed, [delivery([attempt(101)])], at(101 + recentSuccessMs))).toBe(
      'answered',
    );
    expect(shownByDeliveries(changed, [delivery([attempt(101)])], at(102 + recentSuccessMs))).toBe(
      'unanswered',
    );
    expect(shownByDeliveries(changed, [delivery([attempt(100)])], at(200))).toBe('unanswered');
    // A later failure on another delivery is the latest attempt.
    expect(
      shownByDeliveries(changed, [delivery([attempt(150)]), delivery([attempt(160, 'HTTP 500')])], at(200)),
    ).toBe('unanswered');
    // A success before the failing run began shows nothing.
    expect(
      shownByDeliveries({ ...changed, failingSince: iso(150) }, [delivery([attempt(140)])], at(200)),
    ).toBe('unanswered');
  });

  it('is in flight while a dispatcher holds an unexpired lease on a pending, unpaused delivery', () => {
    expect(shownByDeliveries(changed, [delivery([], iso(201))], at(200))).toBe('inFlight');
    expect(shownByDeliveries(changed, [delivery([], iso(200))], at(200))).toBe('unanswered');
    expect(shownByDeliveries(changed, [{ ...delivery([], iso(300)), paused: true }], at(200))).toBe(
      'unanswered',
    );
    expect(shownByDeliveries(changed, [{ ...delivery([], iso(300)), status: 'exhausted' }], at(200))).toBe(
      'unanswered',
    );
    expect(shownByDeliveries(changed, [], at(200))).toBe('unanswered');
  });
});
