import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type ShardHistory, toShardHistory } from '../domain/shard-history';
import { logger } from '../observability/logger';
import type { RouteDefinition } from '../route-definition';
import type { ApiContext, ApiState } from './api-request';

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
        merchantShards: merchantShardsOf(authorizer?.merchantShards),
        now: new Date(),
        startedAt: Date.now(),
        rawBody: undefined,
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
