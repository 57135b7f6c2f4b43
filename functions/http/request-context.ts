import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { PortalScope } from '../domain/portal-session';
import { type ShardHistory, toShardHistory } from '../domain/shard-history';
import { logger } from '../observability/logger';
import type { RouteDefinition } from '../route-definition';
import type { ApiContext, ApiState, RequestPrincipal } from './api-request';
import { headerValue } from './header-value';

/**
 * Starts the per-request state: request id, the authorizer's merchant, the clock reading every
 * later step shares. Ends with one access log line that names the route, never the payload.
 * The request id goes on each line as a field of that call, not as an appended key: the local
 * runtime runs concurrent requests and the delivery pipeline on one logger, where an appended key
 * would land on another request's or the pipeline's lines.
 */
export function requestContext(
  route: RouteDefinition,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const logAccess = ({ requestId, startedAt }: ApiState, status: number) =>
    logger.info('request handled', {
      requestId,
      operationId: route.operationId,
      method: route.method,
      route: route.path,
      status,
      durationMs: Date.now() - startedAt,
    });
  return {
    before: (request) => {
      const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
      const authorizer = request.event.requestContext?.authorizer;
      const merchantId = authorizer?.merchantId;
      (request.context as ApiContext).api = {
        route,
        requestId,
        authorizedMerchantId: typeof merchantId === 'string' ? merchantId : undefined,
        principal: principalOf(authorizer),
        baseUrl: baseUrlOf(request.event),
        merchantShards: merchantShardsOf(authorizer?.merchantShards),
        now: new Date(),
        startedAt: Date.now(),
        rawBody: undefined,
        bodyBytes: undefined,
        params: undefined,
        query: undefined,
        body: undefined,
        idempotency: undefined,
      };
    },
    after: (request) => {
      const state = (request.context as ApiContext).api;
      const status = request.response?.statusCode;
      if (state !== undefined && status !== undefined) logAccess(state, status);
    },
    onError: (request) => {
      const state = (request.context as ApiContext).api;
      const status = request.response?.statusCode;
      if (state !== undefined && status !== undefined) logAccess(state, status);
    },
  };
}

/** The authorizer's shard history; absent or unreadable is one shard (no merchant ever lacks shard 0). */
function merchantShardsOf(value: unknown): ShardHistory {
  if (typeof value !== 'string') return [];
  try {
    return toShardHistory(JSON.parse(value));
  } catch {
    return [];
  }
}

/** The principal the authorizer's context names (functions/authorizer/handler.ts writes these fields). */
function principalOf(authorizer: Record<string, unknown> | null | undefined): RequestPrincipal | undefined {
  const { keyId, keyPrefix, portalSessionId, portalScope } = authorizer ?? {};
  if (typeof keyId !== 'string' || typeof keyPrefix !== 'string') return undefined;
  if (authorizer?.principal !== 'portalSession') return { kind: 'apiKey', keyId, keyPrefix };
  if (typeof portalSessionId !== 'string') return undefined;
  const scope = portalScope === PortalScope.manage ? PortalScope.manage : PortalScope.read;
  return { kind: 'portalSession', portalSessionId, scope, keyId, keyPrefix };
}

/**
 * The API's base URL as the caller reached it: the host API Gateway was called on (its own name or a
 * custom domain) and whatever the path holds before the route's part (`/sandbox` on the API's own
 * name, a base path on a custom domain, nothing locally).
 */
function baseUrlOf(event: APIGatewayProxyEvent): string {
  const host = event.requestContext?.domainName ?? headerValue(event.headers, 'host') ?? 'localhost';
  const protocol = headerValue(event.headers, 'x-forwarded-proto') === 'http' ? 'http' : 'https';
  const fullPath = event.requestContext?.path ?? event.path ?? '';
  const routePath = event.path ?? '';
  const prefix = fullPath.endsWith(routePath) ? fullPath.slice(0, fullPath.length - routePath.length) : '';
  return `${protocol}://${host}${prefix.replace(/\/+$/, '')}`;
}
