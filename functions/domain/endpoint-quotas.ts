/**
 * Per-endpoint quotas on what makes us send requests on the merchant's word alone
 * (docs/decisions/quotas-on-test-deliveries-and-recoveries.md): a rolling count of the latest uses, kept as
 * their times (epoch ms, newest first, at most `cap`), as the pay link keeps its declines.
 */
export interface RollingLimit {
  readonly cap: number;
  readonly windowMs: number;
}

const hourMs = 60 * 60 * 1000;

/** Test deliveries of one endpoint: a debugging session sends a few a minute at most. */
export const TestDeliveryLimit: RollingLimit = { cap: 30, windowMs: hourMs };

/** Recoveries of one endpoint: one per outage, and a handful to try windows. */
export const RecoveryLimit: RollingLimit = { cap: 5, windowMs: hourMs };

/** The times of an endpoint's latest uses of one kind, newest first. */
export type UseHistory = readonly number[];

/**
 * When the limit lets the next use through, or `undefined` when it does now: the cap-th newest use
 * still counts until it is `windowMs` old.
 */
export function limitedUntil(limit: RollingLimit, history: UseHistory, now: Date): Date | undefined {
  const oldestCounted = history[limit.cap - 1];
  if (oldestCounted === undefined) return undefined;
  const until = oldestCounted + limit.windowMs;
  return until > now.getTime() ? new Date(until) : undefined;
}

/** The history after a use at `at`: uses that left the window are dropped, the rest capped. */
export function withUse(limit: RollingLimit, history: UseHistory, at: Date): number[] {
  const windowStart = at.getTime() - limit.windowMs;
  return [at.getTime(), ...history.filter((time) => time > windowStart)].slice(0, limit.cap);
}
