import type { AnswerableError } from '../errors/answerable-error';
import { ErrorCode, type ErrorDetail } from '../errors/error-code';
import { validationAnswer } from '../errors/validation-answer';

/**
 * The errors the HTTP layer answers with. Each maps to exactly one code of the API's vocabulary
 * (`functions/errors/error-code.ts`) and its status; the error middleware turns them into
 * `{"error":{code,message,requestId,details?}}`.
 */
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

  /** The answer a feature's error declares for the request that failed at `now`. */
  static answering(error: AnswerableError, now: Date): ApiError {
    const { code, message, details, headers } = error.answer(now);
    return new ApiError(code, message, {
      cause: error,
      ...(details === undefined ? {} : { details }),
      ...(headers === undefined ? {} : { headers: { ...headers } }),
    });
  }
}

/** A 400 listing at most `maxListedDetails` problems, whoever found them; past that, its message counts them all. */
export class ValidationError extends ApiError {
  override name = 'ValidationError';
  constructor(details: readonly ErrorDetail[], message?: string) {
    const answer = validationAnswer(details, message);
    super(answer.code, answer.message, answer.details === undefined ? {} : { details: answer.details });
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
