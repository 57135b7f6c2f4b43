import { defineRoute, type RouteDefinition } from '../../route-definition';
import { listResponse, MerchantQuery } from '../shared-schemas';
import { Event, EventDelivery, EventPathParams, ListEventDeliveriesQuery, ListEventsQuery } from './schemas';

/**
 * The event log (docs/decisions/the-event-log.md): the merchant's events of the last 90 days and their
 * deliveries.
 */
export const eventRoutes = {
  listEvents: defineRoute({
    operationId: 'listEvents',
    method: 'GET',
    path: '/events',
    summary: 'List events of the last 90 days, newest first, by type, object and creation time',
    tag: 'Events',
    handler: 'api/events/list-events',
    merchantScope: 'query',
    portal: 'read',
    request: { query: ListEventsQuery },
    successStatus: 200,
    response: listResponse(Event),
  }),
  getEvent: defineRoute({
    operationId: 'getEvent',
    method: 'GET',
    path: '/events/{eventId}',
    summary: 'Get an event with exactly the data its webhook deliveries carry',
    tag: 'Events',
    handler: 'api/events/get-event',
    merchantScope: 'query',
    portal: 'read',
    request: { params: EventPathParams, query: MerchantQuery },
    successStatus: 200,
    response: Event,
  }),
  listEventDeliveries: defineRoute({
    operationId: 'listEventDeliveries',
    method: 'GET',
    path: '/events/{eventId}/deliveries',
    summary: 'List the deliveries of an event to every endpoint, redeliveries included, newest first',
    tag: 'Events',
    handler: 'api/events/list-event-deliveries',
    merchantScope: 'query',
    portal: 'read',
    request: { params: EventPathParams, query: ListEventDeliveriesQuery },
    successStatus: 200,
    response: listResponse(EventDelivery),
  }),
} as const satisfies Record<string, RouteDefinition>;
