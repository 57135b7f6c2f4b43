import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { InvalidFields, RuleViolation } from '../domain/errors';
import { PayLinkDeclineLimitReached, secondsUntil } from '../domain/pay-link-declines';
import { ProcessorUnavailableError } from '../payments/payment-processor';
import { isMutating, isPublic, type RouteDefinition } from '../route-definition';
import { ProcessorCallBusy } from '../store/payments';
import { type ApiRequest, type ApiResponse, apiState } from './api-request';
import { errorHandler, type ReplayOptions } from './error-handler';
import { ApiError, RateLimitedError, ValidationError } from './errors';
import { idempotency } from './idempotency';
import { jsonBody } from './json-body';
import { jsonResponse } from './json-response';
import { merchantScope } from './merchant-scope';
import { requestContext } from './request-context';
import { validation } from './validation';

/**
 * Wraps a route's handler in the middleware every endpoint shares, in this order: request context,
 * JSON body, merchant scope (403), validation (400/404), idempotency key. Errors unwind through
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
    ...(isPublic(route) ? [] : [merchantScope(route)]),
    validation(route),
  ];
  if (isMutating(route)) middlewares.push(idempotency(route));
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
    .use(middlewares)
    .handler(async (_event, context) => {
      const state = apiState(context);
      const request = {
        route,
        requestId: state.requestId,
        merchantId: state.authorizedMerchantId ?? '',
        merchantShards: state.merchantShards,
        now: state.now,
        params: state.params,
        query: state.query,
        body: state.body,
        idempotency: state.idempotency,
      } as ApiRequest<R>;
      try {
        return jsonResponse(await handle(request), state.requestId);
      } catch (error) {
        throw asApiError(error, state.now);
      }
    });
}

/** Business-rule errors become API errors here, before idempotency decides what to store. */
function asApiError(error: unknown, now: Date): unknown {
  if (error instanceof RuleViolation) return new ApiError(error.code, error.message, { cause: error });
  if (error instanceof InvalidFields) return new ValidationError(error.problems);
  if (error instanceof ProcessorUnavailableError) {
    return new ApiError('service_unavailable', 'No payment processor is available on this stage.', {
      cause: error,
    });
  }
  // Not stored (no 429 is: docs/decisions/idempotency.md): once the window moves on, the same request may
  // pay.
  if (error instanceof PayLinkDeclineLimitReached) {
    return new RateLimitedError(error.message, secondsUntil(error.until, now), { cause: error });
  }
  // Not stored: the call holding the lock ends within seconds, and a retry then goes through.
  if (error instanceof ProcessorCallBusy)
    return new ApiError('payment_in_progress', error.message, { cause: error });
  return error;
}
