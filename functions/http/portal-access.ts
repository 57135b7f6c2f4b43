import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { PortalScope, PortalSessionState, portalSessionState } from '../domain/portal-session';
import type { RouteDefinition } from '../route-definition';
import { getPortalSessionWithKey } from '../store/portal-sessions';
import { apiState } from './api-request';
import { ApiError, ForbiddenError } from './errors';

/**
 * What a portal session's bearer may call (docs/decisions/merchant-portal-sessions.md): only the routes
 * that name a `portal` scope, and with a `read` session only those that change nothing. An allowed
 * call then reads the session and the key that made it again, in one BatchGetItem, so a revocation or
 * an expiry ends the session at once whatever the authorizer's cache still holds. An API key's
 * requests pass untouched, with no read.
 */
export function portalAccess(
  route: RouteDefinition,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: async (request) => {
      const state = apiState(request.context);
      const principal = state.principal;
      if (principal?.kind !== 'portalSession') return;
      if (route.portal === undefined) {
        throw new ForbiddenError('A portal session can call only the webhook routes the portal uses.');
      }
      if (route.portal === PortalScope.manage && principal.scope !== PortalScope.manage) {
        throw new ForbiddenError('A read portal session cannot change anything.');
      }
      const { session, key } = await getPortalSessionWithKey(principal.portalSessionId, principal.keyId);
      const usable =
        session !== undefined &&
        session.merchantId === state.authorizedMerchantId &&
        portalSessionState(session, key, state.now) === PortalSessionState.usable;
      if (!usable)
        throw new ApiError('unauthorized', 'The portal session has ended; open a new portal link.');
    },
  };
}
