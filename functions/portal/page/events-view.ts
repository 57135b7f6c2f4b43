import { EventTypes, type ListPage, type MerchantEvent, type WebhookDelivery } from './api-types';
import { eventOf, payloadSection } from './delivery-view';
import { button, el, replaceChildren } from './dom';
import { deliveriesTable, placeLink } from './endpoint-view';
import type { PortalContext, PortalPlace } from './portal-context';
import { emptyState, facts, table, timeElement } from './widgets';

/** The event log, newest first, filterable by type. */
export async function renderEvents(context: PortalContext, view: HTMLElement): Promise<void> {
  const type = el(
    'select',
    { id: 'event-type' },
    el('option', { value: '' }, 'All'),
    ...EventTypes.map((value) => el('option', { value }, value)),
  );
  const list = el('div');
  const more = el('div');
  replaceChildren(
    view,
    el('h1', { tabindex: '-1' }, 'Events'),
    el('div', { class: 'field inline' }, el('label', { for: type.id }, 'Show events of type'), type),
    list,
    more,
  );
  let shown: MerchantEvent[] = [];
  const load = async (cursor: string | undefined) => {
    const query = {
      merchantId: context.session.merchantId,
      limit: '50',
      cursor,
      type: type.value === '' ? undefined : type.value,
    };
    const page = await context.api.get<ListPage<MerchantEvent>>('/events', query);
    shown = [...shown, ...page.items];
    replaceChildren(
      list,
      shown.length === 0
        ? emptyState('No events in the last 90 days. Events appear as invoices and payments change.')
        : table(
            'Events, newest first',
            [
              {
                heading: 'Type',
                cell: (e: MerchantEvent) =>
                  placeLink(context, { view: 'event', eventId: e.eventId }, e.type, `${e.type} ${e.eventId}`),
              },
              { heading: 'Object', cell: (e) => e.objectId ?? '—' },
              { heading: 'Created', cell: (e) => timeElement(e.createdAt) },
            ],
            shown,
          ),
    );
    const next = page.page.hasMore ? page.page.nextCursor : undefined;
    replaceChildren(
      more,
      next !== undefined && button('Show more events', () => void load(next).catch(context.alertError)),
    );
  };
  type.addEventListener('change', () => {
    shown = [];
    load(undefined).catch(context.alertError);
  });
  await load(undefined);
}

/** One event: its payload and its deliveries to every endpoint. */
export async function renderEvent(
  context: PortalContext,
  view: HTMLElement,
  place: PortalPlace,
): Promise<void> {
  const eventId = place.eventId ?? '';
  const back = placeLink(context, { view: 'events' }, 'All events');
  const event = await eventOf(context, eventId);
  if (event === undefined) {
    replaceChildren(
      view,
      el('p', {}, back),
      el('h1', { tabindex: '-1' }, 'Event not found'),
      emptyState('No event of this merchant in the last 90 days has this id.'),
    );
    return;
  }
  const deliveries = await context.api.get<ListPage<WebhookDelivery>>(
    `/events/${encodeURIComponent(eventId)}/deliveries`,
    { merchantId: context.session.merchantId, limit: '100' },
  );
  replaceChildren(
    view,
    el('p', {}, back),
    el('h1', { tabindex: '-1' }, event.type),
    facts([
      ['Event', el('code', {}, event.eventId)],
      ['Object', event.objectId ?? undefined],
      ['Created', timeElement(event.createdAt)],
    ]),
    payloadSection(context, event),
    el('h2', {}, 'Deliveries'),
    deliveries.items.length === 0
      ? emptyState('This event was not delivered to any endpoint.')
      : deliveriesTable(context, 'Deliveries of this event', deliveries.items),
  );
}
