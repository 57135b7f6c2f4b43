import type { ErrorCode, ErrorDetail } from './error-code';

/** What the API answers for an error: the code (which fixes the status), the message, and extras. */
export interface ErrorAnswer {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: readonly ErrorDetail[];
  /** Headers the response carries besides the usual ones (Retry-After of a 429). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * An error of a feature (a broken business rule, a busy processor call) that declares its own API
 * answer, so the HTTP layer turns it into a response without knowing the feature. Errors that are
 * not answerable become a bare 500.
 */
export abstract class AnswerableError extends Error {
  /** The answer to the request that failed with this error; `now` is that request's time. */
  abstract answer(now: Date): ErrorAnswer;
}
