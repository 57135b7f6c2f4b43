import * as z from 'zod/mini';
import { functionEnvironment, Stage } from '../../config';
import { successRefreshMs } from '../../domain/endpoint-health';
import { EventType } from '../../domain/invoice';
import { maxSimulatedFailures } from '../../domain/simulated-failures';
import { dnsLabelPattern, lastDnsLabelPattern, portPattern } from '../../domain/url-patterns';
import { WebhookEndpointStatus } from '../../domain/webhook-endpoint';
import { checkWebhookUrl, maxWebhookUrlLength } from '../../domain/webhook-url';
import { ValidationMessage } from '../../http/validation-messages';
import { integer } from '../../validation/integer';
import { list } from '../../validation/list';
import { rule } from '../../validation/rule';
import { documented } from '../../validation/schema-meta';
import { text } from '../../validation/text';
import { ListQuery, MerchantId, Timestamp, typeIdSchema } from '../shared-schemas';

export const WebhookEndpointId = typeIdSchema('whk');

/**
 * The URLs the OpenAPI document promises to accept: https, a lower-case host name of dotted labels
 * whose last starts with a letter (so no IP literal), an optional port 1–65535, and a path and
 * query of visible URL characters. `checkWebhookUrl` is the rule; every URL matching this passes it
 * unless `webhookUrlRefusedPattern` matches too.
 */
const webhookUrlPattern = new RegExp(
  `^https:\\/\\/(?:${dnsLabelPattern}\\.)+${lastDnsLabelPattern}${portPattern}(?:[/?][A-Za-z0-9._~!$&'()*+,;=:@%/?-]*)?$`,
);

/** Names that are local to a network, and `xn--` labels, which must be valid Punycode to parse. */
const webhookUrlRefusedPattern =
  /^https:\/\/(?:[^/?:]+\.)?(?:xn--[^/?:]*|[^/?:]*\.(?:localhost|local|internal|home\.arpa|localdomain))(?:[/?:]|$)/;

/**
 * https only, no user-info, no IP literal or name in a blocked range (docs/decisions/endpoint-management.md).
 */
const WebhookUrl = documented(
  rule(
    text({ max: maxWebhookUrlLength }),
    (url) => {
      // The length has its own issue; one problem, one detail.
      if (url.length > maxWebhookUrlLength) return undefined;
      const check = checkWebhookUrl(url, {
        allowLoopback: functionEnvironment().WEBHOOK_ALLOW_PRIVATE_TARGETS,
      });
      return check.ok ? undefined : check.reason;
    },
    { keywords: { pattern: webhookUrlPattern.source, not: { pattern: webhookUrlRefusedPattern.source } } },
  ),
  {
    format: 'uri',
    example: 'https://example.com/webhooks',
    description:
      'An https URL whose host is a public name with at least one dot; no user name or password, no fragment. ' +
      'Names under .localhost, .local, .internal, .home.arpa and .localdomain are refused. ' +
      'The pattern describes host names only: an IP literal host is accepted too when it is a public unicast ' +
      'address written as a.b.c.d or [IPv6], never a loopback, private, link-local or other reserved one.',
  },
);

/** 1–50 subscribable types, each at most once; an unknown type is a 400 naming its entry. */
const EventTypes = rule(
  list(z.enum(EventType), { min: 1, max: 50 }),
  (types) => (new Set(types).size === types.length ? undefined : ValidationMessage.noRepeats),
  { keywords: { uniqueItems: true } },
);

const Name = text({ min: 1, max: 100 });

/**
 * Sandbox only (docs/decisions/sandbox-failure-simulation.md): the next N attempts fail without a request; 0
 * clears it.
 */
const SimulateFailures = documented(
  rule(integer({ min: 0, max: maxSimulatedFailures }), () =>
    functionEnvironment().STAGE === Stage.sandbox ? undefined : ValidationMessage.sandboxOnly,
  ),
  {
    example: 3,
    description:
      "Sandbox only (production answers 400): the endpoint's next N delivery attempts, of any delivery " +
      'or redelivery, fail without sending a request, each recorded as a failed attempt with a ' +
      '"Simulated failure (sandbox simulateFailures)" errorMessage. 0 clears it; a new value replaces the count left.',
  },
);

const webhookEndpointFields = {
  webhookEndpointId: WebhookEndpointId,
  merchantId: MerchantId,
  url: text(),
  name: z.optional(text()),
  status: z.enum(WebhookEndpointStatus),
  eventTypes: z.array(z.enum(EventType)),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  simulateFailures: z.optional(
    documented(integer({ min: 1, max: maxSimulatedFailures }), {
      description:
        'Sandbox only: how many of the next delivery attempts will still fail without a request. ' +
        'Absent when none will (always, in production).',
    }),
  ),
  lastSucceededAt: z.optional(
    documented(Timestamp, {
      description:
        `When a delivery attempt to the endpoint last succeeded, to within ${successRefreshMs / 60_000} minutes ` +
        '(a test delivery counts; a sandbox simulated failure is no attempt). Absent before the first success, ' +
        'and again after the url changes.',
    }),
  ),
  failingSince: z.optional(
    documented(Timestamp, {
      description:
        'Present while every attempt since this time has failed: the first failure after the latest success. ' +
        'Cleared by a success or a new url. The service never disables an endpoint for failing: every delivery ' +
        'keeps getting all of its attempts until the merchant disables or deletes the endpoint.',
    }),
  ),
};

export const WebhookEndpoint = documented(z.strictObject(webhookEndpointFields), { id: 'WebhookEndpoint' });

/** Create and rotate only: the plaintext secret, shown this once. */
export const WebhookEndpointWithSecret = documented(
  z.strictObject({
    ...webhookEndpointFields,
    signingSecret: documented(text(), { description: 'whsec_ value; shown only on create and rotate.' }),
  }),
  { id: 'WebhookEndpointWithSecret' },
);

export const MerchantPathParams = z.strictObject({ merchantId: MerchantId });

export const WebhookEndpointPathParams = z.strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
});

export const CreateWebhookEndpointBody = z.strictObject({
  url: WebhookUrl,
  name: z.optional(Name),
  eventTypes: EventTypes,
});

export const UpdateWebhookEndpointBody = rule(
  z.strictObject({
    url: z.optional(WebhookUrl),
    name: z.optional(Name),
    eventTypes: z.optional(EventTypes),
    status: z.optional(z.enum([WebhookEndpointStatus.active, WebhookEndpointStatus.disabled])),
    simulateFailures: z.optional(SimulateFailures),
  }),
  (patch) => (Object.keys(patch).length > 0 ? undefined : ValidationMessage.someField),
  { keywords: { minProperties: 1 } },
);

/** Rotate and redeliver take an empty body or `{}` (docs/decisions/endpoint-management.md). */
export const EmptyBody = z.optional(z.strictObject({}));

const { merchantId: _merchantId, ...pageQuery } = ListQuery;
export const ListWebhookEndpointsQuery = z.strictObject(pageQuery);
