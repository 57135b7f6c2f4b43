import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { AnswerableError } from '../errors/answerable-error';
import { isMutating, isPublic, type RouteDefinition } from '../route-definition';
import { type ApiRequest, type ApiResponse, apiState } from './api-request';
import { errorHandler, type ReplayOptions } from './error-handler';
import { ApiError } from './errors';
import { headerValue } from './header-value';
import { idempotency } from './idempotency';
import { jsonBody } from './json-body';
import { jsonResponse } from './json-response';
import { merchantScope } from './merchant-scope';
import { portalAccess } from './portal-access';
import { requestContext } from './request-context';
import { validation } from './validation';

/**
 * Wraps a route's handler in the middleware every endpoint shares, in this order: request context,
 * JSON body, portal access and merchant scope (401/403), validation (400/404), idempotency key. Errors unwind through
 * idempotency (stores a 404/409 outcome) and then the error handler (shapes the response).
 */
export function httpHandler<R extends RouteDefinition>(
  route: R,
  handle: (request: ApiRequest<R>) => Promise<ApiResponse>,
  options: ReplayOptions = {},
) {
  const middlewares = [
    requestContext(route),
    errorHandler(options),
    jsonBody(),
    // A public route has no API key, so no merchant to hold a merchantId against.
    ...(isPublic(route) ? [] : [portalAccess(route), merchantScope(route)]),
    validation(route),
  ];
  if (isMutating(route)) middlewares.push(idempotency(route));
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
    .use(middlewares)
    .handler(async (event, context) => {
      const state = apiState(context);
      const request = {
        route,
        requestId: state.requestId,
        merchantId: state.authorizedMerchantId ?? '',
        principal: state.principal,
        baseUrl: state.baseUrl,
        merchantShards: state.merchantShards,
        now: state.now,
        params: state.params,
        query: state.query,
        body: state.body,
        idempotency: state.idempotency,
        raw: {
          body: state.bodyBytes,
          header: (name: string) => headerValue(event.headers, name.toLowerCase()),
        },
      } as ApiRequest<R>;
      try {
        return jsonResponse(await handle(request), state.requestId);
      } catch (error) {
        throw asApiError(error, state.now);
      }
    });
}

/**
 * A feature's error becomes the API error it declares here, before idempotency decides what to
 * store; the handler knows no feature, only `AnswerableError`.
 */
function asApiError(error: unknown, now: Date): unknown {
  return error instanceof AnswerableError ? ApiError.answering(error, now) : error;
}
