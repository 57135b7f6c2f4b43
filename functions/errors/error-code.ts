/**
 * The API's error vocabulary: every code answers with exactly one status, and every error answer
 * has the body `{"error":{code,message,requestId,details?}}`.
 */
export const ErrorCode = {
  validation_error: 400,
  invalid_json: 400,
  idempotency_key_required: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_state: 409,
  idempotency_in_progress: 409,
  payment_in_progress: 409,
  limit_exceeded: 409,
  endpoint_unhealthy: 409,
  portal_link_used: 410,
  portal_session_expired: 410,
  portal_session_revoked: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ErrorCode;

/**
 * Codes only API Gateway answers with, before any function runs (lib/constructs/gateway-responses.ts):
 * `bad_request` is any other 4xx it refuses, with the status it chose.
 */
export const GatewayErrorCode = ['bad_request'] as const;

export type GatewayErrorCode = (typeof GatewayErrorCode)[number];

export interface ErrorDetail {
  readonly path: string;
  readonly message: string;
}
