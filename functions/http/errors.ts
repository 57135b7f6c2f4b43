/**
 * The API's error vocabulary (docs/architecture.md#conventions-for-every-endpoint). Every error class maps
 * to exactly one code and status; the error middleware turns them into
 * `{"error":{code,message,requestId,details?}}`.
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

export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ErrorCode;
  readonly details: readonly ErrorDetail[] | undefined;

  /** Headers the response carries besides the usual ones (Retry-After of a 429). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: readonly ErrorDetail[]; cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ErrorCode[this.code];
  }
}

/** The most problems one 400 lists; its message counts the rest (docs/decisions/validation-cost.md). */
export const maxListedDetails = 100;

/** A 400 listing at most `maxListedDetails` problems, whoever found them; past that, its message counts them all. */
export class ValidationError extends ApiError {
  override name = 'ValidationError';
  constructor(details: readonly ErrorDetail[], message = 'The request is not valid.') {
    const listed = details.length <= maxListedDetails;
    super(
      'validation_error',
      listed
        ? message
        : `The request is not valid: ${details.length} problems, the first ${maxListedDetails} listed.`,
      { details: listed ? details : details.slice(0, maxListedDetails) },
    );
  }
}

export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  constructor(message = 'The resource does not exist.') {
    super('not_found', message);
  }
}

export class ForbiddenError extends ApiError {
  override name = 'ForbiddenError';
  constructor(message = 'The merchantId does not match the merchant of the API key.') {
    super('forbidden', message);
  }
}

export class InvalidStateError extends ApiError {
  override name = 'InvalidStateError';
  constructor(message: string) {
    super('invalid_state', message);
  }
}

/**
 * 409 `endpoint_unhealthy`: the webhook endpoint has not shown within the hour that it answers
 * (docs/decisions/recovery-needs-an-endpoint-that-answers.md). Not stored for the key: the
 * merchant's next step, a test delivery that succeeds, clears it.
 */
export class EndpointUnhealthyError extends ApiError {
  override name = 'EndpointUnhealthyError';
  constructor(message: string) {
    super('endpoint_unhealthy', message);
  }
}

/** 429 `rate_limited` with the whole seconds to wait in Retry-After (RFC 9110 §10.2.3). */
export class RateLimitedError extends ApiError {
  override name = 'RateLimitedError';
  constructor(message: string, retryAfterSeconds: number, options: { cause?: unknown } = {}) {
    super('rate_limited', message, { ...options, headers: { 'Retry-After': String(retryAfterSeconds) } });
  }
}

/** The body shape every error response uses. */
export function errorBody(error: ApiError, requestId: string | undefined) {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(requestId === undefined ? {} : { requestId }),
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  };
}
