import type * as z from 'zod/mini';
import { eventWebhooks } from '../../functions/api/event-schemas';
import { typeIdPattern } from '../../functions/domain/ids';
import { subscribableEventTypes } from '../../functions/domain/webhook-endpoint';
import { WebhookUserAgent } from '../../functions/domain/webhook-signature';

/**
 * The webhooks of the OpenAPI document (OpenAPI 3.1's top-level `webhooks`): one POST per subscribable
 * event type, in the order of `subscribableEventTypes`, with the body and headers of a delivery as
 * docs/receiving-webhooks.md#the-request describes them.
 */

type JsonSchema = { [keyword: string]: unknown };

/** One event type's webhook: its type, the receiver's operation and the delivery body's schema. */
export interface WebhookDefinition {
  readonly type: string;
  readonly operationId: string;
  readonly summary: string;
  readonly delivery: z.ZodMiniType;
}

export const webhookDefinitions: readonly WebhookDefinition[] = subscribableEventTypes.map((type) => ({
  type,
  ...eventWebhooks[type],
}));

export interface HeaderParameter {
  readonly name: string;
  readonly in: 'header';
  readonly required: boolean;
  readonly description: string;
  readonly schema: JsonSchema;
  readonly example: string;
}

export interface WebhookOperation {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly security: readonly [];
  readonly parameters: readonly { readonly $ref: string }[];
  readonly requestBody: {
    readonly required: true;
    readonly content: { readonly 'application/json': { readonly schema: JsonSchema } };
  };
  readonly responses: { readonly '2XX': { readonly description: string } };
}

/** The tag of every webhook: beside the routes' tags, apart from `Webhooks` (the endpoints' routes). */
export const webhookTag = 'Webhook events';

const deliveryId = 'whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8';
const deliveryIdSchema = { type: 'string', pattern: typeIdPattern('whkdel').source };
const unixSeconds = { type: 'string', pattern: '^[0-9]+$' };
const countingNumber = { type: 'string', pattern: '^[1-9][0-9]*$' };

/**
 * The headers of a delivery (docs/receiving-webhooks.md#headers), as `components/parameters`. Required:
 * what `deliveryHeaders` and `orderingHeaders` (functions/domain/webhook-signature.ts) send on every
 * delivery; the sequence, the object version and the test mark are left out where a delivery has none.
 */
export const webhookHeaderParameters: Record<string, HeaderParameter> = {
  WebhookUserAgent: {
    name: 'User-Agent',
    in: 'header',
    required: true,
    description: 'Sent on every delivery, so you can recognise (and allow-list) our requests.',
    schema: { type: 'string', enum: [WebhookUserAgent] },
    example: WebhookUserAgent,
  },
  MerchantWebhookId: {
    name: 'Merchant-Webhook-Id',
    in: 'header',
    required: true,
    description:
      'The delivery ID, equal to `id` in the body. The same on every retry of a delivery; use it to deduplicate.',
    schema: deliveryIdSchema,
    example: deliveryId,
  },
  MerchantWebhookTimestamp: {
    name: 'Merchant-Webhook-Timestamp',
    in: 'header',
    required: true,
    description:
      'Unix time in seconds of this send attempt (each retry has its own). Refuse a delivery more than 5 minutes from your clock.',
    schema: unixSeconds,
    example: '1735689599',
  },
  MerchantWebhookSignature: {
    name: 'Merchant-Webhook-Signature',
    in: 'header',
    required: true,
    description:
      '`v1=<lowercase hex HMAC-SHA256>` of `<Merchant-Webhook-Id>.<Merchant-Webhook-Timestamp>.<raw body>`, keyed with the whole `whsec_…` signing secret as UTF-8. May hold several space-separated values; the one starting with `v1=` is the one to check.',
    schema: { type: 'string', pattern: '^(?:\\S+ )*v1=[0-9a-f]{64}(?: \\S+)*$' },
    example: 'v1=53b537e02d12151b9a95a6c567825fc38f1fc67a50c729c97ea7f5c1bc10576e',
  },
  StandardWebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: the same as `Merchant-Webhook-Id`.',
    schema: deliveryIdSchema,
    example: deliveryId,
  },
  StandardWebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: the same as `Merchant-Webhook-Timestamp`.',
    schema: unixSeconds,
    example: '1735689599',
  },
  StandardWebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256>` of the same signed content, keyed with the base64-decoded part of the secret after `whsec_`; space-separated values.',
    schema: { type: 'string', pattern: '^(?:\\S+ )*v1,[A-Za-z0-9+/]{43}=(?: \\S+)*$' },
    example: 'v1,MfeOIM1q3+7X8E9RmCV87ab6bOClbpjXuuI9+etxkhI=',
  },
  MerchantWebhookEventId: {
    name: 'Merchant-Webhook-Event-Id',
    in: 'header',
    required: true,
    description:
      "The event's ID. A redelivery carries the same one as the original delivery, under a new delivery ID. Not signed: read it only from a delivery whose signature you verified.",
    schema: { type: 'string', pattern: typeIdPattern('evt').source },
    example: 'evt_01jzb8c8z9a0b1c2d3e4f5g6h7',
  },
  MerchantWebhookSequence: {
    name: 'Merchant-Webhook-Sequence',
    in: 'header',
    required: false,
    description:
      "The delivery's number among all deliveries to this endpoint: 1, 2, 3, … with no number skipped or used twice; retries keep it, a redelivery gets the next one. Absent on a delivery created before sequences were kept. Not signed.",
    schema: countingNumber,
    example: '42',
  },
  MerchantWebhookObjectVersion: {
    name: 'Merchant-Webhook-Object-Version',
    in: 'header',
    required: false,
    description:
      "The version of the object in `data` (the invoice's `currentRevisionNumber`, the payment's or payout's version) after the change; higher is newer. Absent on a test delivery and for an event from before versions were kept. Not signed.",
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '4',
  },
  MerchantWebhookTest: {
    name: 'Merchant-Webhook-Test',
    in: 'header',
    required: false,
    description:
      '`true` on a test delivery you asked for (`POST /merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/test`): sample data with made-up IDs. Absent on every real delivery. Not signed.',
    schema: { type: 'string', enum: ['true'] },
    example: 'true',
  },
};

const parameterRefs = Object.keys(webhookHeaderParameters).map((name) => ({
  $ref: `#/components/parameters/${name}`,
}));

/** `webhooks` of the document: each event type's POST, its body the `$ref` `bodyOf` gives its delivery schema. */
export function webhookItemsOf(
  definitions: readonly WebhookDefinition[],
  bodyOf: (delivery: z.ZodMiniType) => JsonSchema,
): Record<string, { readonly post: WebhookOperation }> {
  return Object.fromEntries(
    definitions.map((definition) => [
      definition.type,
      {
        post: {
          operationId: definition.operationId,
          summary: definition.summary,
          description:
            `Sent to every active webhook endpoint subscribed to \`${definition.type}\`, signed with the endpoint's secret. ` +
            'Verify the signature over the raw body before parsing it. Answer with any 2xx within 10 seconds: anything else (a 3xx too) fails the attempt, and a delivery is attempted at most 5 times, 60 seconds apart.',
          tags: [webhookTag],
          // A delivery carries no API key: its signature headers vouch for it.
          security: [],
          parameters: parameterRefs,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: bodyOf(definition.delivery) } },
          },
          responses: { '2XX': { description: 'Any 2xx acknowledges the delivery.' } },
        },
      },
    ]),
  );
}
