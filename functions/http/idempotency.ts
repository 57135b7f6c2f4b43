import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { idempotencyScopeHash, isValidIdempotencyKey, requestFingerprint } from '../domain/idempotency';
import { invoiceSlugHash } from '../domain/invoice-slug';
import { isPublic, type RouteDefinition } from '../route-definition';
import { replayStoredOutcome, storeOutcome } from '../store/idempotency';
import { apiState } from './api-request';
import { ApiError, errorBody } from './errors';
import { headerValue } from './header-value';

/** Outcomes decided after validation without a change; stored so a retry sees the same answer. */
const storedErrorCodes = new Set(['not_found', 'invalid_state', 'limit_exceeded']);

/**
 * Requires a valid Idempotency-Key on mutating routes and derives the record's scope and payload
 * fingerprint. The handler writes the record in its own transaction; this step only stores the
 * outcome of a 404 or 409 that ended the request without a write (docs/decisions/idempotency.md).
 */
export function idempotency(
  route: RouteDefinition,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const state = apiState(request.context);
      const key = headerValue(request.event.headers, 'idempotency-key');
      if (key === undefined) {
        throw new ApiError(
          'idempotency_key_required',
          'The Idempotency-Key header is required on this request.',
        );
      }
      if (!isValidIdempotencyKey(key)) {
        throw new ApiError(
          'idempotency_key_required',
          'The Idempotency-Key must be 1 to 255 visible ASCII characters.',
        );
      }
      state.idempotency = {
        key,
        requestId: state.requestId,
        scopeHash: idempotencyScopeHash({
          merchantId: state.authorizedMerchantId ?? '',
          method: route.method,
          path: canonicalPath(route, state.params) + payLinkScope(route, state.body),
          key,
        }),
        fingerprint: requestFingerprint(state.rawBody),
        now: state.now,
      };
    },
    onError: async (request) => {
      const state = apiState(request.context);
      const { error } = request;
      if (state.idempotency === undefined || !(error instanceof ApiError)) return;
      try {
        if (storedErrorCodes.has(error.code)) {
          await storeOutcome(state.idempotency, {
            status: error.status,
            body: errorBody(error, state.requestId),
          });
        } else if (error.code === 'validation_error') {
          // A 400 decided on stored state is never stored, but must not hide an earlier outcome.
          await replayStoredOutcome(state.idempotency);
        }
      } catch (storeError) {
        request.error = storeError as Error;
      }
    },
  };
}

/**
 * The route's path with its validated parameters filled in: one spelling per resource, whatever the
 * request's (a trailing slash, an escaped letter), so one key can never act twice on the same
 * resource. A path without parameters is the route's own.
 */
function canonicalPath(route: RouteDefinition, params: unknown): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
}

/**
 * A public route acts for whichever invoice its pay-link slug names, with no merchant to scope by:
 * the slug's hash (never the slug) keeps one payer's key apart from another invoice's payer's.
 */
function payLinkScope(route: RouteDefinition, body: unknown): string {
  if (!isPublic(route)) return '';
  const slug = (body as { slug?: unknown } | undefined)?.slug;
  return typeof slug === 'string' ? `#${invoiceSlugHash(slug)}` : '';
}
