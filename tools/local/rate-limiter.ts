/**
 * A fixed window per client address, like the web ACL's rate-based rule in AWS: at most `limit`
 * requests per window, which starts with an address's first request. Windows sit in the Map in the
 * order they started, so each call drops the ended ones from the front; no address loses its window
 * early, so a flood from other addresses cannot give it a fresh allowance.
 */
export function rateLimiter(options: {
  readonly limit: number;
  readonly windowMs: number;
  /** A clock in milliseconds that never goes back (default `performance.now`; tests move their own). */
  readonly now?: () => number;
}) {
  const { limit, windowMs } = options;
  const clock = options.now ?? (() => performance.now());
  const windows = new Map<string, { startedAt: number; count: number }>();
  const sweep = (now: number) => {
    for (const [address, window] of windows) {
      if (now - window.startedAt < windowMs) return;
      windows.delete(address);
    }
  };
  return {
    /** Counts one request of `address`; false once it is past the limit of its window. */
    allow(address: string): boolean {
      const now = clock();
      sweep(now);
      const current = windows.get(address);
      if (current === undefined) {
        windows.set(address, { startedAt: now, count: 1 });
        return true;
      }
      // Counted no further past the limit: the count stays a small number however long a flood runs.
      if (current.count <= limit) current.count += 1;
      return current.count <= limit;
    },
    /** Addresses whose window still runs: the limiter holds nothing else. */
    get size() {
      return windows.size;
    },
  };
}
