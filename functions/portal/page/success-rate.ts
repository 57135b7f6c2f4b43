/**
 * The success-rate bar of an endpoint: what its deliveries created in the last 24 hours came to
 * (docs/decisions/portal-success-rate.md). Test deliveries are left out; a pending delivery is
 * still being tried and counts in neither side of the rate.
 */

export const SuccessWindow = {
  ms: 24 * 60 * 60_000,
  /** Newest first, at most this many pages of `pageSize`: the bar then says it shows only those. */
  maxPages: 5,
  pageSize: 100,
} as const;

export interface DeliveryOutcome {
  readonly status: 'pending' | 'succeeded' | 'exhausted';
  readonly createdAt: string;
  readonly test?: boolean;
}

export interface DeliveryPage<T extends DeliveryOutcome> {
  readonly items: readonly T[];
  readonly page: { readonly hasMore: boolean; readonly nextCursor?: string };
}

export interface SuccessRate {
  readonly succeeded: number;
  readonly failed: number;
  readonly pending: number;
  /** succeeded / (succeeded + failed); undefined when no delivery of the window has finished. */
  readonly rate: number | undefined;
  /** False when the page cap stopped the count before the window's oldest delivery. */
  readonly complete: boolean;
}

function inWindow(delivery: DeliveryOutcome, now: Date): boolean {
  return Date.parse(delivery.createdAt) > now.getTime() - SuccessWindow.ms;
}

/** The rate over the deliveries given, counting only those of the window and no test delivery. */
export function successRate(deliveries: readonly DeliveryOutcome[], now: Date, complete = true): SuccessRate {
  const counted = deliveries.filter((delivery) => delivery.test !== true && inWindow(delivery, now));
  const count = (status: DeliveryOutcome['status']) => counted.filter((d) => d.status === status).length;
  const succeeded = count('succeeded');
  const failed = count('exhausted');
  const finished = succeeded + failed;
  return {
    succeeded,
    failed,
    pending: count('pending'),
    rate: finished === 0 ? undefined : succeeded / finished,
    complete,
  };
}

/**
 * Pages through an endpoint's deliveries, newest first, until one is older than the window, the list
 * ends, or `maxPages` pages were read.
 */
export async function recentDeliveries<T extends DeliveryOutcome>(
  fetchPage: (cursor: string | undefined) => Promise<DeliveryPage<T>>,
  now: Date,
): Promise<{ deliveries: T[]; complete: boolean }> {
  const deliveries: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < SuccessWindow.maxPages; pages += 1) {
    const { items, page } = await fetchPage(cursor);
    const recent = items.filter((delivery) => inWindow(delivery, now));
    deliveries.push(...recent);
    if (recent.length < items.length || !page.hasMore || page.nextCursor === undefined) {
      return { deliveries, complete: true };
    }
    cursor = page.nextCursor;
  }
  return { deliveries, complete: false };
}

/** The bar's words: `97% of 120 finished deliveries succeeded in the last 24 hours`. */
export function successRateSummary(rate: SuccessRate): string {
  const scope = rate.complete
    ? 'in the last 24 hours'
    : `in the latest ${SuccessWindow.maxPages * SuccessWindow.pageSize} deliveries`;
  const pending = rate.pending === 0 ? '' : `; ${rate.pending} still being tried`;
  if (rate.rate === undefined) return `No finished delivery ${scope}${pending}.`;
  const finished = rate.succeeded + rate.failed;
  const percent = Math.floor(rate.rate * 1000) / 10;
  return `${percent}% of ${finished} finished ${finished === 1 ? 'delivery' : 'deliveries'} succeeded ${scope}${pending}.`;
}
