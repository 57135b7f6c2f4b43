import { defineRoute, type RouteDefinition } from '../../route-definition';
import {
  CreatePortalSessionBody,
  ExchangePortalLinkBody,
  MerchantPathParams,
  PortalExchange,
  PortalSession,
  PortalSessionPathParams,
  PortalSessionWithUrl,
} from './schemas';

/**
 * Portal sessions (docs/decisions/merchant-portal-sessions.md): a merchant's backend mints a link to
 * the portal for one of its users; the page exchanges the link once for the session's bearer.
 */
export const portalSessionRoutes = {
  createPortalSession: defineRoute({
    operationId: 'createPortalSession',
    method: 'POST',
    path: '/merchants/{merchantId}/portal-sessions',
    summary:
      'Mint a link that opens the merchant portal once, for a short time (returns the link, this once)',
    tag: 'Portal',
    handler: 'api/portal-sessions/create-portal-session',
    merchantScope: 'path',
    request: { params: MerchantPathParams, body: CreatePortalSessionBody },
    successStatus: 201,
    response: PortalSessionWithUrl,
    usesSecretsKey: true,
  }),
  revokePortalSession: defineRoute({
    operationId: 'revokePortalSession',
    method: 'DELETE',
    path: '/merchants/{merchantId}/portal-sessions/{portalSessionId}',
    summary: 'End a portal session and its link at once',
    tag: 'Portal',
    handler: 'api/portal-sessions/revoke-portal-session',
    merchantScope: 'path',
    request: { params: PortalSessionPathParams },
    successStatus: 200,
    response: PortalSession,
  }),
  exchangePortalLink: defineRoute({
    operationId: 'exchangePortalLink',
    method: 'POST',
    path: '/portal/exchange',
    summary: "Public: open a portal link, once, for the session's bearer token",
    tag: 'Portal',
    handler: 'api/portal-sessions/exchange-portal-link',
    merchantScope: 'none',
    request: { body: ExchangePortalLinkBody },
    successStatus: 200,
    response: PortalExchange,
    access: 'public',
    opensPortalLink: true,
  }),
} as const satisfies Record<string, RouteDefinition>;
