import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MerchantPaymentsConnectionError, MerchantPaymentsError } from '../../../client/src/errors';
import { defaultRetryPolicy, isRetryable, retryAfterSeconds, retryDelayMs } from '../../../client/src/retry';
import { assertProperty } from '../../support/property';

const apiError = (status: number, code: string, retryAfter?: number) =>
  new MerchantPaymentsError({
    status,
    body: { code: code as never, message: code },
    retryAfterSeconds: retryAfter,
  });

describe('client retry policy', () => {
  it('retries no answer, 429, 5xx and 409 idempotency_in_progress, and no other error', () => {
    expect(isRetryable(new MerchantPaymentsConnectionError('network', 'reset'))).toBe(true);
    expect(isRetryable(new MerchantPaymentsConnectionError('timeout', 'slow'))).toBe(true);
    expect(isRetryable(apiError(429, 'rate_limited'))).toBe(true);
    expect(isRetryable(apiError(500, 'internal_error'))).toBe(true);
    expect(isRetryable(apiError(503, 'service_unavailable'))).toBe(true);
    expect(isRetryable(apiError(409, 'idempotency_in_progress'))).toBe(true);
    for (const [status, code] of [
      [400, 'validation_error'],
      [401, 'unauthorized'],
      [404, 'not_found'],
      [409, 'invalid_state'],
      [409, 'payment_in_progress'],
      [422, 'idempotency_key_reused'],
    ] as const)
      expect(isRetryable(apiError(status, code)), `${status} ${code}`).toBe(false);
    expect(isRetryable(new TypeError('bug'))).toBe(false);
  });

  it('backs off exponentially with jitter: retry n waits from half to all of base·2^(n-1), capped', () => {
    assertProperty(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, random) => {
          const backoff = Math.min(
            defaultRetryPolicy.maxDelayMs,
            defaultRetryPolicy.baseDelayMs * 2 ** (retry - 1),
          );
          const delay = retryDelayMs(
            apiError(503, 'service_unavailable'),
            retry,
            defaultRetryPolicy,
            () => random,
          );
          expect(delay).toBeGreaterThanOrEqual(backoff / 2);
          expect(delay).toBeLessThanOrEqual(backoff);
        },
      ),
      { numRuns: 200 },
    );
    expect(retryDelayMs(apiError(500, 'internal_error'), 1, defaultRetryPolicy, () => 0)).toBe(250);
    expect(retryDelayMs(apiError(500, 'internal_error'), 30, defaultRetryPolicy, () => 0)).toBe(4_000);
  });

  it('waits exactly the Retry-After asked for, up to its limit, and not at all past it', () => {
    expect(retryDelayMs(apiError(429, 'rate_limited', 7), 1, defaultRetryPolicy)).toBe(7_000);
    expect(retryDelayMs(apiError(429, 'rate_limited', 60), 1, defaultRetryPolicy)).toBe(60_000);
    expect(retryDelayMs(apiError(429, 'rate_limited', 61), 1, defaultRetryPolicy)).toBeUndefined();
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-12-02T10:00:00Z');
    expect(retryAfterSeconds(null)).toBeUndefined();
    expect(retryAfterSeconds('0')).toBe(0);
    expect(retryAfterSeconds(' 12 ')).toBe(12);
    expect(retryAfterSeconds('Wed, 02 Dec 2026 10:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Wed, 02 Dec 2026 09:59:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon')).toBeUndefined();
    expect(retryAfterSeconds('-3')).toBeUndefined();
  });
});
