import type { PortalSessionInfo } from './api-types';
import type { PortalApi } from './portal-api';

/** Where the portal is: the in-page state its address's query holds (`?endpoint=…&delivery=…`). */
export interface PortalPlace {
  readonly view: 'endpoints' | 'endpoint' | 'delivery' | 'events' | 'event';
  readonly endpointId?: string;
  readonly deliveryId?: string;
  readonly eventId?: string;
  readonly status?: string;
}

/** What every view is given. */
export interface PortalContext {
  readonly api: PortalApi;
  readonly session: PortalSessionInfo;
  /** A `manage` session; a `read` session shows no control that changes anything. */
  readonly canManage: boolean;
  /** Moves to another place (a history entry of its own) and renders it. */
  navigate(place: PortalPlace): void;
  /** The query string of a place, for real links. */
  hrefOf(place: PortalPlace): string;
  /** Says something politely (`aria-live`), e.g. progress or a change made. */
  announce(message: string): void;
  /** Says an error assertively. */
  alert(message: string): void;
  /** Says what a failed call means; nothing for an ended session, which the page shows already. */
  alertError(error: unknown): void;
}

/** A place from an address's query; anything unknown is the endpoint list. */
export function placeOf(search: string): PortalPlace {
  const query = new URLSearchParams(search);
  const value = (name: string) => {
    const text = query.get(name);
    return text === null || text === '' ? undefined : text;
  };
  const [endpointId, eventId, deliveryId, status] = ['endpoint', 'event', 'delivery', 'status'].map(value);
  const endpoint = endpointId === undefined ? {} : { endpointId };
  // A delivery is found among its event's deliveries, so its place names the event too.
  if (deliveryId !== undefined && eventId !== undefined)
    return { view: 'delivery', deliveryId, eventId, ...endpoint };
  if (eventId !== undefined) return { view: 'event', eventId };
  if (value('view') === 'events') return { view: 'events' };
  if (endpointId !== undefined)
    return { view: 'endpoint', endpointId, ...(status === undefined ? {} : { status }) };
  return { view: 'endpoints' };
}

/** The query string of a place: `?` alone for the endpoint list. */
export function searchOf(place: PortalPlace): string {
  const query = new URLSearchParams();
  if (place.view === 'events') query.set('view', 'events');
  if (place.endpointId !== undefined) query.set('endpoint', place.endpointId);
  if (place.eventId !== undefined) query.set('event', place.eventId);
  if (place.deliveryId !== undefined) query.set('delivery', place.deliveryId);
  if (place.status !== undefined) query.set('status', place.status);
  return `?${query.toString()}`;
}
