import * as z from 'zod/mini';
import { PortalScope, PortalSessionLimits } from '../../domain/portal-session';
import { integer } from '../../validation/integer';
import { list } from '../../validation/list';
import { rule } from '../../validation/rule';
import { documented } from '../../validation/schema-meta';
import { text } from '../../validation/text';
import { MerchantId, Timestamp, typeIdSchema } from '../shared-schemas';

export const PortalSessionId = typeIdSchema('psn');

const hostPattern = '(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)*[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?';
const portPattern =
  '(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?';

/**
 * `https://host[:port]` with a lower-case host name, or `http://` on a loopback host for a page on the
 * developer's machine: an origin as `frame-ancestors` takes it, no path and no wildcard. A default
 * port (443, 80) is dropped when the session is made, as a browser writes the origin.
 */
const originPattern = new RegExp(
  `^(?:https://${hostPattern}|http://(?:localhost|127\\.0\\.0\\.1|\\[::1\\]))${portPattern}$`,
);

const Origin = documented(
  rule(
    text({ max: 260 }),
    (value) =>
      originPattern.test(value) ? undefined : 'must be an origin: https://host or https://host:port.',
    { keywords: { pattern: originPattern.source } },
  ),
  { example: 'https://dashboard.example.com' },
);

const AllowedOrigins = rule(
  list(Origin, { min: 1, max: PortalSessionLimits.maxAllowedOrigins }),
  (origins) => (new Set(origins).size === origins.length ? undefined : 'must not repeat an origin.'),
  { keywords: { uniqueItems: true } },
);

export const CreatePortalSessionBody = z.strictObject({
  scope: documented(z.enum(PortalScope), {
    description:
      '`read` sees endpoints, deliveries and events; `manage` may also change endpoints and resend.',
  }),
  expiresInSeconds: z.optional(
    documented(
      integer({ min: PortalSessionLimits.minExpiresInSeconds, max: PortalSessionLimits.maxExpiresInSeconds }),
      {
        description: `How long the link and the session it opens last; default ${PortalSessionLimits.defaultExpiresInSeconds} (one hour).`,
      },
    ),
  ),
  allowedOrigins: z.optional(
    documented(AllowedOrigins, {
      description:
        'The origins whose pages may show the portal in an iframe (its `frame-ancestors`). Left out, no page may frame it.',
    }),
  ),
});

const portalSessionFields = {
  portalSessionId: PortalSessionId,
  merchantId: MerchantId,
  scope: z.enum(PortalScope),
  allowedOrigins: z.array(text()),
  createdAt: Timestamp,
  expiresAt: Timestamp,
  exchangedAt: z.optional(
    documented(Timestamp, { description: 'When the link was opened; a link opens once.' }),
  ),
  revokedAt: z.optional(Timestamp),
};

export const PortalSession = documented(z.strictObject(portalSessionFields), { id: 'PortalSession' });

export const PortalSessionWithUrl = documented(
  z.strictObject({
    ...portalSessionFields,
    url: documented(text(), {
      description:
        'The link to hand the merchant user: `{base_url}/portal/{portalSessionId}#<token>`. It opens once; ' +
        'shown on create only (and to a replay of the same Idempotency-Key).',
    }),
  }),
  { id: 'PortalSessionWithUrl' },
);

export const MerchantPathParams = z.strictObject({ merchantId: MerchantId });

export const PortalSessionPathParams = z.strictObject({
  merchantId: MerchantId,
  portalSessionId: PortalSessionId,
});

export const ExchangePortalLinkBody = z.strictObject({
  token: documented(text({ min: 1, max: 200 }), { description: 'The part of the link after `#`.' }),
});

export const PortalExchange = documented(
  z.strictObject({
    sessionToken: documented(text(), {
      description: "The portal's bearer for its calls until the session ends; never put it in a URL.",
    }),
    portalSession: PortalSession,
  }),
  { id: 'PortalExchange' },
);
