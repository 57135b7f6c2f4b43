import { MerchantPaymentsConnectionError, MerchantPaymentsError } from './errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  maxRetries: number;
  /** The first backoff, doubled on each retry up to `maxDelayMs`, before jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited out: the error is thrown at once. */
  maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Whether a failed attempt is worth another, with the same Idempotency-Key: no answer at all, a 429,
 * a 5xx, or a 409 `idempotency_in_progress` (the first attempt is still running). Any other 4xx
 * would fail the same way again (client/README.md#errors-and-retries).
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof MerchantPaymentsConnectionError) return true;
  if (!(error instanceof MerchantPaymentsError)) return false;
  return error.status === 429 || error.status >= 500 || error.code === 'idempotency_in_progress';
}

/**
 * How long to wait before retry number `retry` (1 for the first): the `Retry-After` the API asked
 * for when it gave one, else exponential backoff with full jitter (a random wait between half the
 * backoff and all of it), so that clients that failed together do not retry together.
 * Undefined when the wait asked for is longer than the policy allows.
 */
export function retryDelayMs(
  error: unknown,
  retry: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  const asked = error instanceof MerchantPaymentsError ? error.retryAfterSeconds : undefined;
  if (asked !== undefined) {
    const wait = asked * 1000;
    return wait > policy.maxRetryAfterMs ? undefined : wait;
  }
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return backoff / 2 + random() * (backoff / 2);
}

/** Seconds from a `Retry-After` header: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (!/ GMT$/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
