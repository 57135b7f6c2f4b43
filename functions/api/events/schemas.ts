import { EventType } from '../../domain/invoice';
import { DeliveryStatus } from '../../domain/webhook-delivery';
import {
  annotate,
  array,
  enumOf,
  integer,
  nullable,
  optional,
  record,
  refine,
  scalar,
  strictObject,
  string,
} from '../../schema';
import { DeliveryAttempt } from '../delivery-schemas';
import {
  CreatedRange,
  createdRangeAt,
  createdRangeProblem,
  ListQuery,
  Timestamp,
  typeIdSchema,
} from '../shared-schemas';

export const EventId = typeIdSchema('evt');

/** What an event is about: an invoice, a payment (also for its refunds and returns) or a payout. */
export const ObjectId = annotate(
  string({
    pattern: /^(?:inv|pmt|po)_[0-7][0-9a-hjkmnp-tv-z]{25}$/,
    patternMessage: 'must be an inv_, pmt_ or po_ TypeID.',
  }),
  { example: 'inv_01h455vb4pex5vsknk084sn02q' },
);

export const EventPathParams = strictObject({ eventId: EventId });

export const Event = annotate(
  strictObject({
    eventId: EventId,
    type: enumOf(EventType),
    createdAt: Timestamp,
    objectId: nullable(ObjectId),
    objectVersion: nullable(integer({ min: 0 })),
    data: annotate(record(string(), scalar()), {
      description: 'Exactly the payload the event’s webhook deliveries carry as their body’s `data`.',
    }),
  }),
  { id: 'Event' },
);

export const ListEventsQuery = refine(
  strictObject({
    ...ListQuery,
    type: optional(enumOf(EventType)),
    objectId: optional(ObjectId),
    ...CreatedRange,
  }),
  createdRangeProblem,
  createdRangeAt,
);

export const ListEventDeliveriesQuery = strictObject(ListQuery);

const WebhookDeliveryId = typeIdSchema('whkdel');

/** The delivery record of the deliveries list, with the event's order fields (null when absent). */
export const EventDelivery = annotate(
  strictObject({
    webhookDeliveryId: WebhookDeliveryId,
    webhookEndpointId: typeIdSchema('whk'),
    eventId: EventId,
    eventType: enumOf(EventType),
    status: enumOf(DeliveryStatus),
    attemptCount: integer({ min: 0 }),
    createdAt: Timestamp,
    lastAttemptAt: nullable(Timestamp),
    redeliveredFromId: nullable(WebhookDeliveryId),
    attempts: array(DeliveryAttempt),
    sequence: nullable(integer({ min: 1 })),
    objectVersion: nullable(integer({ min: 0 })),
  }),
  { id: 'EventWebhookDelivery' },
);
