import { limitedUntil, type RollingLimit } from '../../domain/endpoint-quotas';
import { type TransactItems, TransactionConditionFailed } from '../../store/transaction';
import {
  buildRecordDestinationUse,
  getDestinationUse,
  type QuotaAttribute,
  useHistoryOf,
} from '../../store/webhook-destinations';

/** One use of a quota of a merchant's webhook destination, and how its commit carries it. */
export interface DestinationUse<T> {
  readonly merchantId: string;
  readonly url: string;
  readonly attribute: QuotaAttribute;
  readonly limit: RollingLimit;
  readonly now: Date;
  /** Commits the change with `use` (the history's write) at action `useIndex` of its items. */
  readonly commit: (use: TransactItems[number]) => Promise<T>;
  readonly useIndex: number;
  /** The answer when the quota is spent until `until`. */
  readonly refuse: (until: Date) => Promise<T>;
  /** Commits that keep finding the history changed under them before giving up. */
  readonly maxRounds: number;
}

/**
 * Commits a change within the quota of the merchant's destination
 * (docs/decisions/quotas-on-test-deliveries-and-recoveries.md): decided from the destination's history
 * as read, written in the change's transaction only while it is that history; a lost condition hands
 * the history back, and the use is decided again from it.
 */
export async function withinDestinationQuota<T>(use: DestinationUse<T>): Promise<T> {
  const { merchantId, url, attribute, limit, now } = use;
  let history = useHistoryOf(await getDestinationUse(merchantId, url), attribute);
  for (let round = 1; ; round += 1) {
    const until = limitedUntil(limit, history, now);
    if (until !== undefined) return use.refuse(until);
    try {
      return await use.commit(buildRecordDestinationUse(merchantId, url, { attribute, limit }, history, now));
    } catch (error) {
      const moved = error instanceof TransactionConditionFailed ? error.failureAt(use.useIndex) : undefined;
      if (moved === undefined || round >= use.maxRounds) throw error;
      history = useHistoryOf(moved.existing, attribute);
    }
  }
}
