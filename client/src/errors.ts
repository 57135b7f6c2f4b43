import type { components } from './generated/openapi.js';

type ErrorBody = components['schemas']['Error']['error'];

/** Every `error.code` the API documents (docs/openapi.json, the Error schema). */
export type ErrorCode = ErrorBody['code'];

/** One problem of a 400 `validation_error`: the field's path and what is wrong with it. */
export type ErrorDetail = NonNullable<ErrorBody['details']>[number];

/**
 * The API answered with an error. `code` is the discriminant: one of the documented codes, so a
 * `switch (error.code)` is checked by the compiler. `requestId` is what support asks for.
 */
export class MerchantPaymentsError extends Error {
  override readonly name = 'MerchantPaymentsError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: readonly ErrorDetail[];
  readonly requestId: string | undefined;
  /** Seconds the API asked to wait (`Retry-After`), when it did. */
  readonly retryAfterSeconds: number | undefined;

  constructor(input: {
    status: number;
    body: ErrorBody;
    requestId?: string | undefined;
    retryAfterSeconds?: number | undefined;
  }) {
    super(input.body.message);
    this.status = input.status;
    this.code = input.body.code;
    this.details = input.body.details ?? [];
    this.requestId = input.body.requestId ?? input.requestId;
    this.retryAfterSeconds = input.retryAfterSeconds;
  }
}

/**
 * No answer came: the connection failed (`network`), the request outlived its timeout (`timeout`),
 * or the answer was not the API's JSON (`invalid_response`). Retried like a 5xx before it is thrown.
 */
export class MerchantPaymentsConnectionError extends Error {
  override readonly name = 'MerchantPaymentsConnectionError';
  readonly reason: 'network' | 'timeout' | 'invalid_response';

  constructor(
    reason: MerchantPaymentsConnectionError['reason'],
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.reason = reason;
  }
}
