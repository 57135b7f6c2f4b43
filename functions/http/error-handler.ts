import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { IdempotencyInProgress, IdempotentReplay } from '../store/idempotency';
import type { ApiContext } from './api-request';
import { ApiError, errorBody } from './errors';
import { jsonResponse } from './json-response';
import { logger } from './logger';
import { originalStack } from './original-stack';

/**
 * Turns every failure into the error shape of docs/architecture.md#conventions-for-every-endpoint. A stored
 * idempotent outcome is replayed (or refused with 422 when the payload differs); anything unknown is a bare
 * 500 whose log line carries the error's name and stack, never request data.
 */
export function errorHandler(
  options: ReplayOptions = {},
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: async (request) => {
      const requestId = (request.context as ApiContext).api?.requestId ?? request.context.awsRequestId;
      const { error } = request;
      if (error instanceof IdempotentReplay) {
        const stored = error.response;
        const revive = error.sameRequest && stored.status < 300 ? options.reviveReplay : undefined;
        const body = revive === undefined ? stored.body : await revive(stored.body);
        request.response = error.sameRequest
          ? jsonResponse({ status: stored.status, body }, requestId, { 'Idempotent-Replayed': 'true' })
          : errorResponse(
              new ApiError(
                'idempotency_key_reused',
                'This Idempotency-Key was already used with a different request body.',
              ),
              requestId,
            );
        return;
      }
      if (error instanceof IdempotencyInProgress) {
        request.response = errorResponse(
          error.sameRequest
            ? new ApiError(
                'idempotency_in_progress',
                'A request with this Idempotency-Key is still being processed; retry it in a few seconds.',
              )
            : new ApiError(
                'idempotency_key_reused',
                'This Idempotency-Key was already used with a different request body.',
              ),
          requestId,
        );
        return;
      }
      if (error instanceof ApiError) {
        request.response = errorResponse(error, requestId);
        return;
      }
      logger.error('unhandled error', { requestId, errorName: error?.name, stack: originalStack(error) });
      request.response = errorResponse(
        new ApiError('internal_error', 'An internal error occurred.'),
        requestId,
      );
    },
  };
}

export interface ReplayOptions {
  /** Turns a stored body back into the response (opens a sealed secret); only for 2xx bodies. */
  readonly reviveReplay?: (storedBody: unknown) => Promise<unknown>;
}

function errorResponse(error: ApiError, requestId: string): APIGatewayProxyResult {
  return jsonResponse({ status: error.status, body: errorBody(error, requestId) }, requestId, error.headers);
}
