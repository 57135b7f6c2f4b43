import * as z from 'zod/mini';
import { EventType } from '../../domain/invoice';
import { DeliveryStatus } from '../../domain/webhook-delivery';
import { integer } from '../../validation/integer';
import { keyRecord } from '../../validation/key-record';
import { rule } from '../../validation/rule';
import { scalar } from '../../validation/scalar';
import { documented } from '../../validation/schema-meta';
import { text } from '../../validation/text';
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
export const ObjectId = documented(
  text({
    pattern: /^(?:inv|pmt|po)_[0-7][0-9a-hjkmnp-tv-z]{25}$/,
    patternMessage: 'must be an inv_, pmt_ or po_ TypeID.',
  }),
  { example: 'inv_01h455vb4pex5vsknk084sn02q' },
);

export const EventPathParams = z.strictObject({ eventId: EventId });

export const Event = documented(
  z.strictObject({
    eventId: EventId,
    type: z.enum(EventType),
    createdAt: Timestamp,
    objectId: z.nullable(ObjectId),
    objectVersion: z.nullable(integer({ min: 0 })),
    data: documented(keyRecord(text(), scalar()), {
      description: 'Exactly the payload the event’s webhook deliveries carry as their body’s `data`.',
    }),
  }),
  { id: 'Event' },
);

export const ListEventsQuery = rule(
  z.strictObject({
    ...ListQuery,
    type: z.optional(z.enum(EventType)),
    objectId: z.optional(ObjectId),
    ...CreatedRange,
  }),
  createdRangeProblem,
  createdRangeAt,
);

export const ListEventDeliveriesQuery = z.strictObject(ListQuery);

const WebhookDeliveryId = typeIdSchema('whkdel');

/** The delivery record of the deliveries list, with the event's order fields (null when absent). */
export const EventDelivery = documented(
  z.strictObject({
    webhookDeliveryId: WebhookDeliveryId,
    webhookEndpointId: typeIdSchema('whk'),
    eventId: EventId,
    eventType: z.enum(EventType),
    status: z.enum(DeliveryStatus),
    attemptCount: integer({ min: 0 }),
    createdAt: Timestamp,
    lastAttemptAt: z.nullable(Timestamp),
    redeliveredFromId: z.nullable(WebhookDeliveryId),
    attempts: z.array(DeliveryAttempt),
    sequence: z.nullable(integer({ min: 1 })),
    objectVersion: z.nullable(integer({ min: 0 })),
  }),
  { id: 'EventWebhookDelivery' },
);
