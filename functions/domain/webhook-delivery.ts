import { idDerivedFromEvent } from './ids';
import type { EventType } from './invoice';

export const DeliveryStatus = { pending: 'pending', succeeded: 'succeeded', exhausted: 'exhausted' } as const;
export type DeliveryStatus = (typeof DeliveryStatus)[keyof typeof DeliveryStatus];

/** At most 5 attempts in total (docs/receiving-webhooks.md#answering-retries-and-deduplication). */
export const maxAttempts = 5;

/** One attempt of a delivery: all five keys always present. */
export interface DeliveryAttempt {
  readonly attemptNumber: number;
  readonly attemptedAt: string;
  readonly responseStatusCode: number | null;
  readonly durationMs: number;
  readonly errorMessage: string | null;
}

export interface WebhookDelivery {
  readonly webhookDeliveryId: string;
  readonly webhookEndpointId: string;
  readonly merchantId: string;
  readonly eventId: string;
  readonly eventType: EventType;
  /** The event's payload, sent as the body's `data`. */
  readonly data: Readonly<Record<string, unknown>>;
  readonly status: DeliveryStatus;
  readonly attemptCount: number;
  readonly attempts: readonly DeliveryAttempt[];
  readonly createdAt: string;
  readonly lastAttemptAt: string | null;
  readonly redeliveredFromId: string | null;
  /**
   * The endpoint is disabled: no attempts until it is enabled again (docs/decisions/delivery-pipeline.md).
   */
  readonly paused: boolean;
  /**
   * The delivery's number in its endpoint's gapless sequence (1, 2, 3 …), assigned once, when it is
   * written (docs/decisions/delivery-sequence-numbers-and-object-versions.md); null until then, and for a
   * delivery written before sequences were kept.
   */
  readonly sequence: number | null;
  /** The event's `objectVersion`; null when the event was written before versions were kept. */
  readonly objectVersion: number | null;
  /**
   * A test delivery of sample data (`POST …/test`), sent with `Merchant-Webhook-Test: true`;
   * absent on every other delivery.
   */
  readonly test?: true;
  /**
   * A recovery's delivery: the URL the recovery checked, the only one it is sent to. Absent on every
   * other delivery, which goes to the endpoint's URL at its attempt (docs/decisions/bulk-recovery.md).
   */
  readonly targetUrl?: string;
}

/**
 * The id of the one delivery of an event to an endpoint: derived, not drawn, so a retried stream
 * batch writes the same delivery again instead of a second one. Its time bits are the event's, so
 * deliveries still sort by time.
 */
export function deliveryIdFor(eventId: string, webhookEndpointId: string): string {
  return idDerivedFromEvent('whkdel', eventId, webhookEndpointId);
}

export function newDelivery(input: {
  webhookDeliveryId: string;
  webhookEndpointId: string;
  merchantId: string;
  eventId: string;
  eventType: EventType;
  data: Readonly<Record<string, unknown>>;
  paused: boolean;
  redeliveredFromId?: string | null;
  objectVersion?: number | null;
  now: string;
}): WebhookDelivery {
  return {
    webhookDeliveryId: input.webhookDeliveryId,
    webhookEndpointId: input.webhookEndpointId,
    merchantId: input.merchantId,
    eventId: input.eventId,
    eventType: input.eventType,
    data: input.data,
    status: DeliveryStatus.pending,
    attemptCount: 0,
    attempts: [],
    createdAt: input.now,
    lastAttemptAt: null,
    redeliveredFromId: input.redeliveredFromId ?? null,
    paused: input.paused,
    sequence: null,
    objectVersion: input.objectVersion ?? null,
  };
}

/**
 * What the deliveries of one event are listed with (`GET /events/{eventId}/deliveries`): the
 * delivery's view without its `data` (the event holds that), and what proves whose it is and
 * whether it is kept. The event-deliveries index (GSI5) projects exactly these, so a delivery write
 * that changes none of them (a lease) leaves the index alone. `eventId` and `createdAt` are the
 * index's keys, which every index carries.
 */
export const eventDeliveryIndexFields = [
  'entityType',
  'merchantId',
  'ttl',
  'webhookDeliveryId',
  'webhookEndpointId',
  'eventType',
  'status',
  'attemptCount',
  'attempts',
  'lastAttemptAt',
  'redeliveredFromId',
  'sequence',
  'objectVersion',
  'test',
] as const;

/** The delivery with its number in the endpoint's sequence, given when it is written. */
export function withSequence(delivery: WebhookDelivery, sequence: number): WebhookDelivery {
  return { ...delivery, sequence };
}

export interface AttemptOutcome {
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly errorMessage: string | null;
  readonly succeeded: boolean;
}

/** A delivery's status: 2xx → succeeded; the 5th failure → exhausted; else pending. */
export function recordAttempt(
  delivery: WebhookDelivery,
  outcome: AttemptOutcome,
  attemptedAt: string,
): WebhookDelivery {
  const attemptNumber = delivery.attemptCount + 1;
  const attempt: DeliveryAttempt = {
    attemptNumber,
    attemptedAt,
    responseStatusCode: outcome.statusCode,
    durationMs: Math.max(0, Math.round(outcome.durationMs)),
    errorMessage: outcome.succeeded ? null : (outcome.errorMessage ?? 'Failed'),
  };
  const status = outcome.succeeded
    ? DeliveryStatus.succeeded
    : attemptNumber >= maxAttempts
      ? DeliveryStatus.exhausted
      : DeliveryStatus.pending;
  return {
    ...delivery,
    attemptCount: attemptNumber,
    attempts: [...delivery.attempts, attempt],
    lastAttemptAt: attemptedAt,
    status,
  };
}

/** A manual redelivery is a new, independent delivery linked to the original. */
export function redeliveryOf(
  original: WebhookDelivery,
  webhookDeliveryId: string,
  now: string,
): WebhookDelivery {
  const redelivery = newDelivery({
    webhookDeliveryId,
    webhookEndpointId: original.webhookEndpointId,
    merchantId: original.merchantId,
    eventId: original.eventId,
    eventType: original.eventType,
    data: original.data,
    paused: false,
    redeliveredFromId: original.webhookDeliveryId,
    objectVersion: original.objectVersion,
    now,
  });
  // A redelivery of a test delivery is a test too: the same sample, marked the same way.
  return original.test === true ? { ...redelivery, test: true } : redelivery;
}

/**
 * The delivery as the API lists it (the API reference's delivery history record), plus the event's id,
 * the delivery's sequence number and the object's version that its headers carry
 * (docs/decisions/delivery-sequence-numbers-and-object-versions.md).
 */
export function deliveryView(delivery: WebhookDelivery) {
  return {
    webhookDeliveryId: delivery.webhookDeliveryId,
    webhookEndpointId: delivery.webhookEndpointId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    sequence: delivery.sequence,
    objectVersion: delivery.objectVersion,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    createdAt: delivery.createdAt,
    lastAttemptAt: delivery.lastAttemptAt,
    redeliveredFromId: delivery.redeliveredFromId,
    attempts: delivery.attempts,
    ...(delivery.test === true ? { test: true as const } : {}),
  };
}
