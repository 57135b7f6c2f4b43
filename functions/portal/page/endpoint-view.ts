import { DeliveryStatuses, type ListPage, type WebhookDelivery, type WebhookEndpoint } from './api-types';
import { inListOrder } from './delivery-order';
import { button, el, replaceChildren } from './dom';
import { endpointActions } from './endpoint-actions';
import { endpointFacts, endpointsPath } from './endpoints-view';
import type { PortalContext, PortalPlace } from './portal-context';
import { successMeter } from './success-meter';
import { emptyState, endpointTitle, statusBadge, table, timeElement } from './widgets';

/** Deliveries the lists showed, by id: a delivery's own view shows them without another call. */
export const seenDeliveries = new Map<string, WebhookDelivery>();

/** A link to a place, followed in the page (a history entry, no reload). */
export function placeLink(
  context: PortalContext,
  place: PortalPlace,
  text: string,
  label?: string,
): HTMLAnchorElement {
  const link = el('a', { href: context.hrefOf(place), 'aria-label': label }, text);
  link.addEventListener('click', (event) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    context.navigate(place);
  });
  return link;
}

/** The deliveries table of the endpoint view and of an event's view. */
export function deliveriesTable(
  context: PortalContext,
  caption: string,
  deliveries: readonly WebhookDelivery[],
): HTMLTableElement {
  for (const delivery of deliveries) seenDeliveries.set(delivery.webhookDeliveryId, delivery);
  return table(
    caption,
    [
      { heading: 'Status', cell: (d: WebhookDelivery) => statusBadge(d.status) },
      { heading: 'Sequence', cell: (d) => (d.sequence === null ? '—' : String(d.sequence)), numeric: true },
      { heading: 'Event type', cell: (d) => (d.test === true ? `${d.eventType} (test)` : d.eventType) },
      { heading: 'Created', cell: (d) => timeElement(d.createdAt) },
      { heading: 'Attempts', cell: (d) => String(d.attemptCount), numeric: true },
      {
        heading: 'Details',
        cell: (d) =>
          placeLink(
            context,
            {
              view: 'delivery',
              deliveryId: d.webhookDeliveryId,
              eventId: d.eventId,
              endpointId: d.webhookEndpointId,
            },
            'Attempts and payload',
            `Attempts and payload of delivery ${d.webhookDeliveryId}`,
          ),
      },
    ],
    deliveries,
  );
}

async function findEndpoint(
  context: PortalContext,
  endpointId: string,
): Promise<WebhookEndpoint | undefined> {
  let cursor: string | undefined;
  do {
    const page = await context.api.get<ListPage<WebhookEndpoint>>(endpointsPath(context), {
      limit: '100',
      cursor,
    });
    const found = page.items.find((endpoint) => endpoint.webhookEndpointId === endpointId);
    if (found !== undefined) return found;
    cursor = page.page.hasMore ? page.page.nextCursor : undefined;
  } while (cursor !== undefined);
  return undefined;
}

function statusFilter(context: PortalContext, place: PortalPlace): HTMLElement {
  const select = el(
    'select',
    { id: 'delivery-status' },
    el('option', { value: '' }, 'All'),
    ...DeliveryStatuses.map((status) =>
      el('option', { value: status, selected: place.status === status }, status),
    ),
  );
  select.addEventListener('change', () => {
    const { status: _previous, ...rest } = place;
    context.navigate(select.value === '' ? rest : { ...rest, status: select.value });
  });
  return el(
    'div',
    { class: 'field inline' },
    el('label', { for: select.id }, 'Show deliveries by status'),
    select,
  );
}

/** One endpoint: its state, success rate, controls (manage), and its deliveries newest first. */
export async function renderEndpoint(
  context: PortalContext,
  view: HTMLElement,
  place: PortalPlace,
): Promise<void> {
  const endpointId = place.endpointId ?? '';
  const endpoint = await findEndpoint(context, endpointId);
  const back = placeLink(context, { view: 'endpoints' }, 'All endpoints');
  if (endpoint === undefined) {
    replaceChildren(
      view,
      el('p', {}, back),
      el('h1', { tabindex: '-1' }, 'Endpoint not found'),
      emptyState('No endpoint of this merchant has this id.'),
    );
    return;
  }
  const deliveries = el('div');
  const more = el('div');
  let state = endpointFacts(endpoint);
  replaceChildren(
    view,
    el('p', {}, back),
    el('h1', { tabindex: '-1' }, endpointTitle(endpoint)),
    state,
    successMeter(context, endpointId),
    context.canManage && endpointActions(context, endpoint, () => context.navigate(place)),
    el('h2', {}, 'Deliveries'),
    statusFilter(context, place),
    deliveries,
    more,
  );
  const path = `${endpointsPath(context)}/${encodeURIComponent(endpointId)}/deliveries`;
  const shown: WebhookDelivery[] = [];
  const load = async (cursor: string | undefined) => {
    const page = await context.api.get<ListPage<WebhookDelivery>>(path, {
      limit: '50',
      cursor,
      status: place.status,
    });
    shown.splice(0, shown.length, ...inListOrder([...shown, ...page.items]));
    // "Last success" reads at least the newest success now listed.
    const facts = endpointFacts(endpoint, shown);
    state.replaceWith(facts);
    state = facts;
    replaceChildren(
      deliveries,
      shown.length === 0
        ? emptyState(
            place.status === undefined
              ? 'No deliveries to this endpoint yet.'
              : `No ${place.status} deliveries to this endpoint.`,
          )
        : deliveriesTable(context, 'Deliveries, newest first', shown),
    );
    const next = page.page.hasMore ? page.page.nextCursor : undefined;
    replaceChildren(
      more,
      next !== undefined && button('Show more deliveries', () => void load(next).catch(context.alertError)),
    );
  };
  await load(undefined);
}
