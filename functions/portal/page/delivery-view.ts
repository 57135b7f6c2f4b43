import type { DeliveryAttempt, ListPage, MerchantEvent, WebhookDelivery } from './api-types';
import { el, replaceChildren } from './dom';
import { placeLink, seenDeliveries } from './endpoint-view';
import { ApiError } from './portal-api';
import type { PortalContext, PortalPlace } from './portal-context';
import { displayedDuration } from './time-format';
import { copyButton, emptyState, facts, jsonBlock, statusBadge, table, timeElement } from './widgets';

const merchantQuery = (context: PortalContext) => ({ merchantId: context.session.merchantId });

/** The event's payload, or undefined when the event log does not have it (a test delivery's sample). */
export async function eventOf(context: PortalContext, eventId: string): Promise<MerchantEvent | undefined> {
  try {
    return await context.api.get<MerchantEvent>(
      `/events/${encodeURIComponent(eventId)}`,
      merchantQuery(context),
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

export function payloadSection(context: PortalContext, event: MerchantEvent | undefined): HTMLElement {
  const section = el(
    'section',
    { 'aria-labelledby': 'payload-heading' },
    el('h2', { id: 'payload-heading' }, 'Event payload'),
  );
  if (event === undefined) {
    section.append(
      emptyState(
        'The event log has no payload for this delivery: a test delivery carries sample data, and events are kept 90 days.',
      ),
    );
    return section;
  }
  const text = () => JSON.stringify(event.data, null, 2);
  section.append(jsonBlock('Event payload', event.data), copyButton('Copy payload', text, context.announce));
  return section;
}

/** The event's deliveries; none for an event this merchant does not have (a 404). */
async function eventDeliveries(context: PortalContext, eventId: string): Promise<WebhookDelivery[]> {
  try {
    const page = await context.api.get<ListPage<WebhookDelivery>>(
      `/events/${encodeURIComponent(eventId)}/deliveries`,
      { ...merchantQuery(context), limit: '100' },
    );
    return page.items;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

/**
 * The delivery as its event's deliveries list it now, else as a list showed it before: that list
 * reads an index a moment behind the table, so a redelivery made a moment ago may not be in it yet
 * (docs/decisions/deliveries-of-one-event.md).
 */
async function deliveryOf(context: PortalContext, place: PortalPlace): Promise<WebhookDelivery | undefined> {
  const listed = (await eventDeliveries(context, place.eventId ?? '')).find(
    (delivery) => delivery.webhookDeliveryId === place.deliveryId,
  );
  if (listed !== undefined) seenDeliveries.set(listed.webhookDeliveryId, listed);
  return listed ?? seenDeliveries.get(place.deliveryId ?? '');
}

/**
 * How often a pending delivery's view reads it again: soon after a change, when the next attempt is
 * likeliest to land, then twice as long each time up to 30 s, as retries are a minute apart by default.
 */
const FollowMs = { first: 1500, most: 30_000 } as const;

/**
 * Reads a pending delivery again while its view shows, redrawing its status and attempts in place
 * (focus stays where it is), and says when it has settled.
 */
function followPending(
  context: PortalContext,
  place: PortalPlace,
  parts: { readonly status: HTMLElement; readonly attempts: HTMLElement },
  shown: WebhookDelivery,
  waitMs: number = FollowMs.first,
): void {
  setTimeout(() => {
    if (!parts.attempts.isConnected) return;
    deliveryOf(context, place).then((delivery) => {
      if (delivery === undefined || !parts.attempts.isConnected) return;
      const changed = delivery.attemptCount !== shown.attemptCount || delivery.status !== shown.status;
      replaceChildren(parts.status, statusBadge(delivery.status));
      replaceChildren(parts.attempts, attemptsTable(delivery.attempts));
      if (delivery.status !== 'pending') {
        return context.announce(
          delivery.status === 'succeeded'
            ? 'The delivery succeeded.'
            : 'Every attempt of the delivery failed.',
        );
      }
      followPending(
        context,
        place,
        parts,
        delivery,
        changed ? FollowMs.first : Math.min(waitMs * 2, FollowMs.most),
      );
    }, context.alertError);
  }, waitMs);
}

function attemptsTable(attempts: readonly DeliveryAttempt[]): HTMLElement {
  if (attempts.length === 0) return emptyState('No attempt yet.');
  return table(
    'Attempts',
    [
      { heading: 'Attempt', cell: (a: DeliveryAttempt) => String(a.attemptNumber), numeric: true },
      { heading: 'Time', cell: (a) => timeElement(a.attemptedAt) },
      {
        heading: 'Status code',
        cell: (a) => (a.responseStatusCode === null ? 'No response' : String(a.responseStatusCode)),
        numeric: true,
      },
      { heading: 'Duration', cell: (a) => displayedDuration(a.durationMs), numeric: true },
      { heading: 'Error', cell: (a) => a.errorMessage ?? '—' },
    ],
    attempts,
  );
}

async function redeliver(context: PortalContext, delivery: WebhookDelivery): Promise<void> {
  const created = await context.api.send<WebhookDelivery>(
    'POST',
    `/merchants/${encodeURIComponent(context.session.merchantId)}/webhook-endpoints/${encodeURIComponent(delivery.webhookEndpointId)}/deliveries/${encodeURIComponent(delivery.webhookDeliveryId)}/redeliver`,
  );
  seenDeliveries.set(created.webhookDeliveryId, created);
  context.announce(`Redelivery ${created.webhookDeliveryId} created.`);
  context.navigate({
    view: 'delivery',
    deliveryId: created.webhookDeliveryId,
    eventId: created.eventId,
    endpointId: created.webhookEndpointId,
  });
}

/** One delivery: its state, every attempt, the event's payload, and (manage) a redelivery. */
export async function renderDelivery(
  context: PortalContext,
  view: HTMLElement,
  place: PortalPlace,
): Promise<void> {
  const [delivery, event] = await Promise.all([
    deliveryOf(context, place),
    eventOf(context, place.eventId ?? ''),
  ]);
  const back =
    place.endpointId === undefined
      ? placeLink(context, { view: 'events' }, 'All events')
      : placeLink(context, { view: 'endpoint', endpointId: place.endpointId }, 'Back to the endpoint');
  if (delivery === undefined) {
    replaceChildren(
      view,
      el('p', {}, back),
      el('h1', { tabindex: '-1' }, 'Delivery not found'),
      emptyState('No delivery of this merchant has this id.'),
    );
    return;
  }
  const redeliverButton = el('button', { type: 'button' }, 'Redeliver');
  redeliverButton.addEventListener('click', () => {
    redeliverButton.disabled = true;
    redeliver(context, delivery).catch((error: unknown) => {
      redeliverButton.disabled = false;
      context.alertError(error);
    });
  });
  const parts = { status: el('span', {}, statusBadge(delivery.status)), attempts: el('div') };
  replaceChildren(parts.attempts, attemptsTable(delivery.attempts));
  replaceChildren(
    view,
    el('p', {}, back),
    el('h1', { tabindex: '-1' }, `Delivery of ${delivery.eventType}`),
    facts([
      ['Status', parts.status],
      ['Delivery', el('code', {}, delivery.webhookDeliveryId)],
      ['Sequence', delivery.sequence === null ? undefined : String(delivery.sequence)],
      ['Event', placeLink(context, { view: 'event', eventId: delivery.eventId }, delivery.eventId)],
      ['Created', timeElement(delivery.createdAt)],
      ['Redelivery of', delivery.redeliveredFromId ?? undefined],
      ['Test', delivery.test === true ? 'Yes, sample data' : undefined],
    ]),
    context.canManage && el('div', { class: 'actions' }, redeliverButton),
    el('h2', {}, 'Attempts'),
    parts.attempts,
    payloadSection(context, event),
  );
  if (delivery.status === 'pending') followPending(context, place, parts, delivery);
}
