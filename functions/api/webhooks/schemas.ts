import { z } from 'zod';
import { functionEnvironment } from '../../config';
import { EventType } from '../../domain/invoice';
import { DeliveryStatus } from '../../domain/webhook-delivery';
import { WebhookEndpointStatus } from '../../domain/webhook-endpoint';
import { checkWebhookUrl, maxWebhookUrlLength } from '../../domain/webhook-url';
import { ValidationMessage } from '../../http/validation-messages';
import { ListQuery, MerchantId, Timestamp, typeIdSchema } from '../shared-schemas';

export const WebhookEndpointId = typeIdSchema('whk');

/** https only, no user-info, no IP literal or name in a blocked range (DESIGN §4 "Webhook URL"). */
const WebhookUrl = z
  .string()
  .max(maxWebhookUrlLength)
  .superRefine((url, context) => {
    // The length has its own issue above; one problem, one detail.
    if (url.length > maxWebhookUrlLength) return;
    const check = checkWebhookUrl(url, {
      allowLoopback: functionEnvironment().WEBHOOK_ALLOW_PRIVATE_TARGETS,
    });
    if (!check.ok) context.addIssue({ code: 'custom', message: check.reason });
  })
  .meta({ format: 'uri', example: 'https://example.com/webhooks' });

/** 1–50 subscribable types, each at most once; an unknown type is a 400 naming its entry. */
const EventTypes = z
  .array(z.enum(EventType))
  .min(1)
  .max(50)
  .refine((types) => new Set(types).size === types.length, { message: ValidationMessage.noRepeats });

const Name = z.string().min(1).max(100);

export const WebhookEndpoint = z
  .strictObject({
    webhookEndpointId: WebhookEndpointId,
    merchantId: MerchantId,
    url: z.string(),
    name: z.string().optional(),
    status: z.enum(WebhookEndpointStatus),
    eventTypes: z.array(z.enum(EventType)),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });

/** Create and rotate only: the plaintext secret, shown this once. */
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  signingSecret: z.string().meta({ description: 'whsec_ value; shown only on create and rotate.' }),
}).meta({ id: 'WebhookEndpointWithSecret' });

export const MerchantPathParams = z.strictObject({ merchantId: MerchantId });

export const WebhookEndpointPathParams = z.strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
});

export const CreateWebhookEndpointBody = z.strictObject({
  url: WebhookUrl,
  name: Name.optional(),
  eventTypes: EventTypes,
});

export const UpdateWebhookEndpointBody = z
  .strictObject({
    url: WebhookUrl.optional(),
    name: Name.optional(),
    eventTypes: EventTypes.optional(),
    status: z.enum([WebhookEndpointStatus.active, WebhookEndpointStatus.disabled]).optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { message: ValidationMessage.someField });

/** Rotate and redeliver take an empty body or `{}` (DESIGN §4). */
export const EmptyBody = z.strictObject({}).optional();

const { merchantId: _merchantId, ...pageQuery } = ListQuery;
export const ListWebhookEndpointsQuery = z.strictObject(pageQuery);

export const WebhookDeliveryId = typeIdSchema('whkdel');

export const DeliveryAttempt = z
  .strictObject({
    attemptNumber: z.number().int().min(1),
    attemptedAt: Timestamp,
    responseStatusCode: z.number().int().nullable(),
    durationMs: z.number().int().min(0),
    errorMessage: z.string().nullable(),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const WebhookDelivery = z
  .strictObject({
    webhookDeliveryId: WebhookDeliveryId,
    webhookEndpointId: WebhookEndpointId,
    eventType: z.enum(EventType),
    status: z.enum(DeliveryStatus),
    attemptCount: z.number().int().min(0),
    createdAt: Timestamp,
    lastAttemptAt: Timestamp.nullable(),
    redeliveredFromId: WebhookDeliveryId.nullable(),
    attempts: z.array(DeliveryAttempt),
  })
  .meta({ id: 'WebhookDelivery' });

export const ListDeliveriesQuery = z.strictObject({
  ...pageQuery,
  status: z.enum(DeliveryStatus).optional(),
});

export const DeliveryPathParams = z.strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
  webhookDeliveryId: WebhookDeliveryId,
});
