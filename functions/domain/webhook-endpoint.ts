import { RuleViolation } from './errors';
import { EventType } from './invoice';
import { normalizedWebhookUrl } from './webhook-url';

export const WebhookEndpointStatus = { active: 'active', disabled: 'disabled', deleted: 'deleted' } as const;
export type WebhookEndpointStatus = (typeof WebhookEndpointStatus)[keyof typeof WebhookEndpointStatus];

/** The subscribable event types (docs/receiving-webhooks.md#event-types): only these; no wildcard. */
export const subscribableEventTypes = Object.values(EventType);

/** At most 20 endpoints that are not deleted, per merchant. */
export const maxEndpointsPerMerchant = 20;

/**
 * The endpoint as the API shows it; the signing secret is never part of it (shown on create and rotate only).
 */
export interface WebhookEndpoint {
  readonly webhookEndpointId: string;
  readonly merchantId: string;
  readonly url: string;
  readonly name?: string;
  readonly status: WebhookEndpointStatus;
  readonly eventTypes: readonly EventType[];
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Sandbox only: how many of its next attempts fail without a request; absent when none. */
  readonly simulateFailures?: number;
  /** When a real attempt last succeeded, to within 5 minutes; absent before the first (or since the URL changed). */
  readonly lastSucceededAt?: string;
  /** When the run of failed attempts began that no success has ended yet; absent while none failed since. */
  readonly failingSince?: string;
}

export function newWebhookEndpoint(input: {
  webhookEndpointId: string;
  merchantId: string;
  url: string;
  name?: string | undefined;
  eventTypes: readonly EventType[];
  now: string;
}): WebhookEndpoint {
  return {
    webhookEndpointId: input.webhookEndpointId,
    merchantId: input.merchantId,
    url: normalizedWebhookUrl(input.url),
    ...(input.name === undefined ? {} : { name: input.name }),
    status: WebhookEndpointStatus.active,
    eventTypes: input.eventTypes,
    createdAt: input.now,
    updatedAt: input.now,
  };
}

export interface WebhookEndpointPatch {
  readonly url?: string | undefined;
  readonly name?: string | undefined;
  readonly eventTypes?: readonly EventType[] | undefined;
  readonly status?: 'active' | 'disabled' | undefined;
  /** Sandbox only (the schema refuses it elsewhere); 0 clears the simulation. */
  readonly simulateFailures?: number | undefined;
}

/**
 * Update may change url, name, eventTypes and status (active or disabled) of a live endpoint, and in
 * the sandbox how many of its next attempts fail without a request. A new URL has answered nothing
 * yet, so its health starts afresh (docs/decisions/endpoint-health.md); a change of status leaves the
 * health as the attempts showed it.
 */
export function updateWebhookEndpoint(
  endpoint: WebhookEndpoint,
  patch: WebhookEndpointPatch,
  now: string,
): WebhookEndpoint {
  requireLive(endpoint);
  const { simulateFailures: _kept, lastSucceededAt, failingSince, ...rest } = endpoint;
  const simulateFailures = patch.simulateFailures ?? endpoint.simulateFailures ?? 0;
  const newUrl = patch.url !== undefined && normalizedWebhookUrl(patch.url) !== endpoint.url;
  return {
    ...rest,
    ...(simulateFailures === 0 ? {} : { simulateFailures }),
    ...(lastSucceededAt === undefined || newUrl ? {} : { lastSucceededAt }),
    ...(failingSince === undefined || newUrl ? {} : { failingSince }),
    ...(patch.url === undefined ? {} : { url: normalizedWebhookUrl(patch.url) }),
    ...(patch.name === undefined ? {} : { name: patch.name }),
    ...(patch.eventTypes === undefined ? {} : { eventTypes: patch.eventTypes }),
    ...(patch.status === undefined ? {} : { status: patch.status }),
    updatedAt: now,
  };
}

/** Delete answers with the endpoint, status deleted; afterwards it is 404 everywhere. */
export function deleteWebhookEndpoint(endpoint: WebhookEndpoint, now: string): WebhookEndpoint {
  requireLive(endpoint);
  // A deleted endpoint is never attempted again: a pending simulation ends with it.
  const { simulateFailures: _ended, ...rest } = endpoint;
  return { ...rest, status: WebhookEndpointStatus.deleted, updatedAt: now };
}

export function isLive(endpoint: WebhookEndpoint): boolean {
  return endpoint.status !== WebhookEndpointStatus.deleted;
}

/** Callers look endpoints up first and answer 404 for deleted ones; this guards the rule itself. */
function requireLive(endpoint: WebhookEndpoint): void {
  if (!isLive(endpoint)) throw new RuleViolation('invalid_state', 'The webhook endpoint is deleted.');
}

/**
 * When the endpoint last began receiving each event type it is subscribed to (ISO 8601), kept beside
 * the endpoint rather than shown by the API.
 */
export type SubscribedSince = Readonly<Partial<Record<EventType, string>>>;

/**
 * The time of every type the endpoint is subscribed to. A type without a kept time, as every type of
 * an endpoint written before times were kept, counts as subscribed since the endpoint was created.
 */
export function subscribedSinceOf(endpoint: WebhookEndpoint, kept: SubscribedSince = {}): SubscribedSince {
  return Object.fromEntries(endpoint.eventTypes.map((type) => [type, kept[type] ?? endpoint.createdAt]));
}

/**
 * After a change at `now`: a type still subscribed keeps its time, a type added starts at `now`, so one
 * removed and added back gets none of the events in between.
 */
export function subscribedSinceAfterChange(
  previous: WebhookEndpoint,
  previousSince: SubscribedSince,
  next: WebhookEndpoint,
  now: string,
): SubscribedSince {
  const kept = subscribedSinceOf(previous, previousSince);
  return Object.fromEntries(
    next.eventTypes.map((type) => [
      type,
      (previous.eventTypes.includes(type) ? kept[type] : undefined) ?? now,
    ]),
  );
}

/**
 * An event reaches the endpoints that are not deleted (a disabled one keeps it paused) and
 * were subscribed to its type, without a break, from the time it occurred: an endpoint created or
 * subscribed to the type at that very millisecond receives it, one a millisecond later does not.
 */
export function receivesEvent(
  endpoint: WebhookEndpoint,
  subscribedSince: SubscribedSince,
  event: { readonly eventType: EventType; readonly createdAt: string },
): boolean {
  if (!isLive(endpoint) || !endpoint.eventTypes.includes(event.eventType)) return false;
  const since = subscribedSince[event.eventType] ?? endpoint.createdAt;
  const occurredAt = Date.parse(event.createdAt);
  return Date.parse(endpoint.createdAt) <= occurredAt && Date.parse(since) <= occurredAt;
}
