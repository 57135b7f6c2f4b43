import { functionEnvironment } from '../../config';
import { EventType } from '../../domain/invoice';
import { DeliveryStatus } from '../../domain/webhook-delivery';
import { WebhookEndpointStatus } from '../../domain/webhook-endpoint';
import { checkWebhookUrl, maxWebhookUrlLength } from '../../domain/webhook-url';
import { ValidationMessage } from '../../http/validation-messages';
import {
  annotate,
  array,
  enumOf,
  integer,
  nullable,
  optional,
  refine,
  strictObject,
  string,
} from '../../schema';
import { ListQuery, MerchantId, Timestamp, typeIdSchema } from '../shared-schemas';

export const WebhookEndpointId = typeIdSchema('whk');

/** https only, no user-info, no IP literal or name in a blocked range (DESIGN §4 "Webhook URL"). */
const WebhookUrl = annotate(
  refine(string({ max: maxWebhookUrlLength }), (url) => {
    // The length has its own issue; one problem, one detail.
    if (url.length > maxWebhookUrlLength) return undefined;
    const check = checkWebhookUrl(url, {
      allowLoopback: functionEnvironment().WEBHOOK_ALLOW_PRIVATE_TARGETS,
    });
    return check.ok ? undefined : check.reason;
  }),
  { format: 'uri', example: 'https://example.com/webhooks' },
);

/** 1–50 subscribable types, each at most once; an unknown type is a 400 naming its entry. */
const EventTypes = refine(array(enumOf(EventType), { min: 1, max: 50 }), (types) =>
  new Set(types).size === types.length ? undefined : ValidationMessage.noRepeats,
);

const Name = string({ min: 1, max: 100 });

const webhookEndpointFields = {
  webhookEndpointId: WebhookEndpointId,
  merchantId: MerchantId,
  url: string(),
  name: optional(string()),
  status: enumOf(WebhookEndpointStatus),
  eventTypes: array(enumOf(EventType)),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const WebhookEndpoint = annotate(strictObject(webhookEndpointFields), { id: 'WebhookEndpoint' });

/** Create and rotate only: the plaintext secret, shown this once. */
export const WebhookEndpointWithSecret = annotate(
  strictObject({
    ...webhookEndpointFields,
    signingSecret: annotate(string(), { description: 'whsec_ value; shown only on create and rotate.' }),
  }),
  { id: 'WebhookEndpointWithSecret' },
);

export const MerchantPathParams = strictObject({ merchantId: MerchantId });

export const WebhookEndpointPathParams = strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
});

export const CreateWebhookEndpointBody = strictObject({
  url: WebhookUrl,
  name: optional(Name),
  eventTypes: EventTypes,
});

export const UpdateWebhookEndpointBody = refine(
  strictObject({
    url: optional(WebhookUrl),
    name: optional(Name),
    eventTypes: optional(EventTypes),
    status: optional(enumOf([WebhookEndpointStatus.active, WebhookEndpointStatus.disabled])),
  }),
  (patch) => (Object.keys(patch).length > 0 ? undefined : ValidationMessage.someField),
);

/** Rotate and redeliver take an empty body or `{}` (DESIGN §4). */
export const EmptyBody = optional(strictObject({}));

const { merchantId: _merchantId, ...pageQuery } = ListQuery;
export const ListWebhookEndpointsQuery = strictObject(pageQuery);

export const WebhookDeliveryId = typeIdSchema('whkdel');

export const DeliveryAttempt = annotate(
  strictObject({
    attemptNumber: integer({ min: 1 }),
    attemptedAt: Timestamp,
    responseStatusCode: nullable(integer()),
    durationMs: integer({ min: 0 }),
    errorMessage: nullable(string()),
  }),
  { id: 'WebhookDeliveryAttempt' },
);

export const WebhookDelivery = annotate(
  strictObject({
    webhookDeliveryId: WebhookDeliveryId,
    webhookEndpointId: WebhookEndpointId,
    eventType: enumOf(EventType),
    status: enumOf(DeliveryStatus),
    attemptCount: integer({ min: 0 }),
    createdAt: Timestamp,
    lastAttemptAt: nullable(Timestamp),
    redeliveredFromId: nullable(WebhookDeliveryId),
    attempts: array(DeliveryAttempt),
  }),
  { id: 'WebhookDelivery' },
);

export const ListDeliveriesQuery = strictObject({
  ...pageQuery,
  status: optional(enumOf(DeliveryStatus)),
});

export const DeliveryPathParams = strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
  webhookDeliveryId: WebhookDeliveryId,
});
