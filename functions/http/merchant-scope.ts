import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { IdPrefix, isTypeId } from '../domain/ids';
import type { RouteDefinition } from '../route-definition';
import { apiState } from './api-request';
import { ApiError, ForbiddenError } from './errors';

/**
 * A merchantId naming another merchant than the key's is a 403
 * (docs/decisions/merchant-scope-and-validation-order.md), decided before field validation so a foreign
 * scope never learns which of its fields were wrong. A missing or malformed merchantId is left to validation
 * (400): it names no merchant at all. Nor does one given twice in the query, whichever value comes first:
 * validation names it (`repeatedParameters`), as it names any parameter given twice.
 */
export function merchantScope(
  route: RouteDefinition,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const state = apiState(request.context);
      if (state.authorizedMerchantId === undefined) {
        throw new ApiError('unauthorized', 'The request carries no authorized merchant.');
      }
      const named = namedMerchantId(route, request.event, state.rawBody);
      const isMerchantId = typeof named === 'string' && isTypeId(named, IdPrefix.merchant);
      if (isMerchantId && named !== state.authorizedMerchantId) throw new ForbiddenError();
    },
  };
}

function namedMerchantId(route: RouteDefinition, event: APIGatewayProxyEvent, rawBody: unknown): unknown {
  switch (route.merchantScope) {
    case 'path':
      return event.pathParameters?.merchantId;
    case 'query':
      return (event.multiValueQueryStringParameters?.merchantId?.length ?? 0) > 1
        ? undefined
        : event.queryStringParameters?.merchantId;
    case 'body':
      return typeof rawBody === 'object' && rawBody !== null
        ? (rawBody as Record<string, unknown>).merchantId
        : undefined;
  }
}
