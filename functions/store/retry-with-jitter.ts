/**
 * How a store loop retries: `attempts` in all (the first included), and before retry n a wait drawn
 * at random below min(`capMs`, `baseMs` × 2ⁿ), "full jitter", so writers racing for one item spread
 * out instead of meeting again (docs/decisions.md "DynamoDB throttling and transaction conflicts").
 */
export interface JitterRetry {
  readonly attempts: number;
  readonly baseMs: number;
  readonly capMs: number;
}

/**
 * Runs `attempt` until it resolves, again after a failure `retryOn` accepts while attempts remain;
 * any other failure, or the last, is thrown as it is.
 */
export async function retryWithJitter<T>(
  policy: JitterRetry,
  attempt: () => Promise<T>,
  retryOn: (error: unknown) => boolean,
): Promise<T> {
  for (let retry = 1; ; retry += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= policy.attempts || !retryOn(error)) throw error;
    }
    const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** retry);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
  }
}
