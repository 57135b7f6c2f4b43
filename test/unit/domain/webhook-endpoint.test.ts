import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventType } from '../../../functions/domain/invoice';
import {
  deleteWebhookEndpoint,
  newWebhookEndpoint,
  receivesEvent,
  type SubscribedSince,
  subscribedSinceAfterChange,
  subscribedSinceOf,
  updateWebhookEndpoint,
  type WebhookEndpoint,
  type WebhookEndpointPatch,
} from '../../../functions/domain/webhook-endpoint';
import { assertProperty } from '../../support/property';

const base = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (offsetMs: number) => new Date(base + offsetMs).toISOString();

function created(eventTypes: EventType[], atMs: number): WebhookEndpoint {
  return newWebhookEndpoint({
    webhookEndpointId: 'whk_1',
    merchantId: 'mer_1',
    url: 'https://hooks.example.com/x',
    eventTypes,
    now: iso(atMs),
  });
}

/** The endpoint and its subscription times after `patch` at `atMs`. */
function changed(
  endpoint: WebhookEndpoint,
  since: SubscribedSince,
  patch: WebhookEndpointPatch,
  atMs: number,
) {
  const next = updateWebhookEndpoint(endpoint, patch, iso(atMs));
  return { endpoint: next, since: subscribedSinceAfterChange(endpoint, since, next, iso(atMs)) };
}

const event = (eventType: EventType, atMs: number) => ({ eventType, createdAt: iso(atMs) });

describe('receivesEvent', () => {
  it('delivers to an endpoint created at or before the millisecond the event occurred, not one created after', () => {
    const endpoint = created([EventType.invoiceSent], 50);
    const since = subscribedSinceOf(endpoint);
    expect(receivesEvent(endpoint, since, event(EventType.invoiceSent, 49))).toBe(false);
    expect(receivesEvent(endpoint, since, event(EventType.invoiceSent, 50))).toBe(true);
    expect(receivesEvent(endpoint, since, event(EventType.invoiceSent, 51))).toBe(true);
  });

  it('delivers an event of a type added by an update only when it occurred at or after the update', () => {
    const first = created([EventType.invoicePaid], 0);
    const { endpoint, since } = changed(
      first,
      subscribedSinceOf(first),
      { eventTypes: [EventType.invoicePaid, EventType.invoiceSent] },
      70,
    );
    expect(since).toEqual({ [EventType.invoicePaid]: iso(0), [EventType.invoiceSent]: iso(70) });
    expect(receivesEvent(endpoint, since, event(EventType.invoiceSent, 69))).toBe(false);
    expect(receivesEvent(endpoint, since, event(EventType.invoiceSent, 70))).toBe(true);
    expect(receivesEvent(endpoint, since, event(EventType.invoicePaid, 1))).toBe(true);
  });

  it('gives a type removed and added back the time it was added back', () => {
    const first = created([EventType.invoicePaid, EventType.invoiceSent], 0);
    const removed = changed(first, subscribedSinceOf(first), { eventTypes: [EventType.invoicePaid] }, 10);
    const again = changed(
      removed.endpoint,
      removed.since,
      { eventTypes: [EventType.invoiceSent, EventType.invoicePaid] },
      20,
    );
    expect(again.since[EventType.invoiceSent]).toBe(iso(20));
    expect(receivesEvent(again.endpoint, again.since, event(EventType.invoiceSent, 5))).toBe(false);
    expect(receivesEvent(again.endpoint, again.since, event(EventType.invoiceSent, 15))).toBe(false);
    expect(receivesEvent(again.endpoint, again.since, event(EventType.invoiceSent, 20))).toBe(true);
  });

  it('keeps the times through changes of status and url', () => {
    const first = created([EventType.invoiceSent], 0);
    const disabled = changed(
      first,
      subscribedSinceOf(first),
      { status: 'disabled', url: 'https://b.example.com' },
      30,
    );
    expect(disabled.since).toEqual({ [EventType.invoiceSent]: iso(0) });
    expect(receivesEvent(disabled.endpoint, disabled.since, event(EventType.invoiceSent, 10))).toBe(true);
  });

  it('treats every type of an endpoint without kept times as subscribed since its creation', () => {
    const endpoint = created([EventType.invoiceSent, EventType.paymentCreated], 40);
    expect(subscribedSinceOf(endpoint, {})).toEqual({
      [EventType.invoiceSent]: iso(40),
      [EventType.paymentCreated]: iso(40),
    });
    expect(receivesEvent(endpoint, {}, event(EventType.paymentCreated, 39))).toBe(false);
    expect(receivesEvent(endpoint, {}, event(EventType.paymentCreated, 40))).toBe(true);
  });

  it('delivers to a disabled endpoint, never to a deleted one or for a type it is not subscribed to', () => {
    const endpoint = created([EventType.invoiceSent], 0);
    const since = subscribedSinceOf(endpoint);
    const disabled = { ...endpoint, status: 'disabled' as const };
    expect(receivesEvent(disabled, since, event(EventType.invoiceSent, 5))).toBe(true);
    expect(
      receivesEvent(deleteWebhookEndpoint(endpoint, iso(9)), since, event(EventType.invoiceSent, 5)),
    ).toBe(false);
    expect(receivesEvent(endpoint, since, event(EventType.invoicePaid, 5))).toBe(false);
  });
});

type Change =
  | { readonly gapMs: number; readonly eventTypes: EventType[] }
  | { readonly gapMs: number; readonly status: 'active' | 'disabled' };

// Three types of the seven, so the event's type is often among those subscribed and kept.
const someTypes = [EventType.invoiceSent, EventType.invoicePaid, EventType.paymentCreated];
const eventTypeSet = fc.subarray(someTypes, { minLength: 1 });
// Some changes on the same millisecond, some far apart.
const gapMs = fc.oneof(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 3, max: 20 }));
/** The event's time: near one of the endpoint's changes (its creation first), a millisecond either side. */
const eventTime = fc.record({ change: fc.nat(), offsetMs: fc.integer({ min: -1, max: 1 }) });
const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ gapMs, eventTypes: eventTypeSet }),
  fc.record({ gapMs, status: fc.constantFrom('active' as const, 'disabled' as const) }),
);

/**
 * The rule written out on the endpoint's whole history: the type was subscribed in the state of the
 * event's millisecond (after every change made at or before it) and in every state after it.
 */
function subscribedThroughout(
  states: readonly { atMs: number; eventTypes: readonly EventType[] }[],
  eventType: EventType,
  atMs: number,
): boolean {
  const upTo = states.filter((state) => state.atMs <= atMs);
  const after = states.filter((state) => state.atMs > atMs);
  const atEvent = upTo.at(-1);
  return (
    atEvent?.eventTypes.includes(eventType) === true &&
    after.every((state) => state.eventTypes.includes(eventType))
  );
}

describe('receivesEvent over an endpoint history', () => {
  it('delivers exactly when the endpoint is not deleted and was subscribed to the type from the event on', () => {
    assertProperty(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        eventTypeSet,
        fc.array(change, { maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom(...someTypes),
        eventTime,
        (createdAtMs, initialTypes, changes, deleted, keptBefore, eventType, near) => {
          let endpoint = created(initialTypes, createdAtMs);
          // An endpoint written before times were kept has none; its history starts the same way.
          let since = keptBefore ? subscribedSinceOf(endpoint) : {};
          let atMs = createdAtMs;
          const states = [{ atMs, eventTypes: endpoint.eventTypes }];
          for (const next of changes) {
            atMs += next.gapMs;
            ({ endpoint, since } = changed(endpoint, since, next, atMs));
            states.push({ atMs, eventTypes: endpoint.eventTypes });
          }
          if (deleted) endpoint = deleteWebhookEndpoint(endpoint, iso(atMs));
          const eventAtMs = (states[near.change % states.length]?.atMs ?? 0) + near.offsetMs;

          expect(receivesEvent(endpoint, since, event(eventType, eventAtMs))).toBe(
            !deleted && subscribedThroughout(states, eventType, eventAtMs),
          );
        },
      ),
      {
        examples: [
          // Created at the event's millisecond; a millisecond after it.
          [5, [EventType.invoiceSent], [], false, true, EventType.invoiceSent, { change: 0, offsetMs: 0 }],
          [5, [EventType.invoiceSent], [], false, false, EventType.invoiceSent, { change: 0, offsetMs: -1 }],
          // Removed and added back at the event's millisecond; added back a millisecond after it, legacy.
          [
            0,
            [EventType.invoiceSent],
            [
              { gapMs: 2, eventTypes: [EventType.invoicePaid] },
              { gapMs: 0, eventTypes: [EventType.invoicePaid, EventType.invoiceSent] },
            ],
            false,
            true,
            EventType.invoiceSent,
            { change: 1, offsetMs: 0 },
          ],
          [
            0,
            [EventType.invoiceSent],
            [
              { gapMs: 2, eventTypes: [EventType.invoicePaid] },
              { gapMs: 1, eventTypes: [EventType.invoicePaid, EventType.invoiceSent] },
            ],
            false,
            false,
            EventType.invoiceSent,
            { change: 1, offsetMs: 0 },
          ],
        ],
      },
    );
  });
});

describe('updateWebhookEndpoint and the endpoint health', () => {
  const failingEndpoint: WebhookEndpoint = {
    ...created([EventType.invoiceSent], 0),
    status: 'disabled',
    lastSucceededAt: iso(10),
    failingSince: iso(20),
  };

  it('starts a new url afresh: no success of the old one counts for it', () => {
    const moved = updateWebhookEndpoint(failingEndpoint, { url: 'https://other.example.com/x' }, iso(30));
    expect(moved.lastSucceededAt).toBeUndefined();
    expect(moved.failingSince).toBeUndefined();
    expect(moved.status).toBe('disabled');
  });

  it('keeps the health through a change that keeps the url, even one spelling it differently', () => {
    const renamed = updateWebhookEndpoint(
      failingEndpoint,
      { name: 'renamed', url: 'HTTPS://hooks.example.com/x' },
      iso(30),
    );
    expect(renamed).toMatchObject({
      lastSucceededAt: iso(10),
      failingSince: iso(20),
    });
  });

  it('keeps the failing run through enabling: only an attempt that succeeds ends it', () => {
    const enabled = updateWebhookEndpoint(failingEndpoint, { status: 'active' }, iso(30));
    expect(enabled.status).toBe('active');
    expect(enabled.lastSucceededAt).toBe(iso(10));
    expect(enabled.failingSince).toBe(iso(20));
  });
});
