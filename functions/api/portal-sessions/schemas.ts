import * as z from 'zod/mini';
import { PortalScope, PortalSessionLimits } from '../../domain/portal-session';
import { frameOriginPattern } from '../../domain/url-patterns';
import { integer } from '../../validation/integer';
import { list } from '../../validation/list';
import { rule } from '../../validation/rule';
import { documented } from '../../validation/schema-meta';
import { text } from '../../validation/text';
import { MerchantId, Timestamp, typeIdSchema } from '../shared-schemas';

export const PortalSessionId = typeIdSchema('psn');

/** A default port (443, 80) is dropped when the session is made, as a browser writes the origin. */
const Origin = documented(
  text({
    max: 260,
    pattern: frameOriginPattern,
    patternMessage: 'must be an origin: https://host or https://host:port.',
  }),
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
