import { type AttributeValue, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient } from './client';

export type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** One failed condition of a cancelled transaction: which item, and the item as it was. */
export interface FailedCondition {
  readonly index: number;
  readonly existing: Record<string, unknown> | undefined;
}

/** Thrown when a condition of the transaction failed; carries each failed item's old image. */
export class TransactionConditionFailed extends Error {
  override name = 'TransactionConditionFailed';
  readonly failures: readonly FailedCondition[];
  constructor(failures: readonly FailedCondition[], options: { cause?: unknown } = {}) {
    super(`Condition failed on item(s) ${failures.map((failure) => failure.index).join(', ')}`, options);
    this.failures = failures;
  }

  failureAt(index: number): FailedCondition | undefined {
    return this.failures.find((failure) => failure.index === index);
  }
}

/** A conflict with another in-flight transaction is sent again up to 10 times. */
const conflictRetry: JitterRetry = { attempts: 11, baseMs: 5, capMs: 100 };

/**
 * Sends one TransactWriteItems. A conflict with another in-flight transaction is retried with
 * full jitter; a failed condition becomes a TransactionConditionFailed carrying the old images
 * (every conditional item asks for ALL_OLD), so callers never need a second read to learn why.
 */
export async function sendTransaction(items: TransactItems): Promise<void> {
  await retryWithJitter(conflictRetry, () => sendOnce(items), isConflict);
}

async function sendOnce(items: TransactItems): Promise<void> {
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    const reasons = error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
    const failures = reasons.flatMap((reason, index) =>
      reason.Code === 'ConditionalCheckFailed' ? [{ index, existing: oldImage(reason.Item) }] : [],
    );
    if (failures.length > 0) throw new TransactionConditionFailed(failures, { cause: error });
    throw error;
  }
}

/** Cancelled because another transaction was in flight on one of its items. */
function isConflict(error: unknown): boolean {
  return (
    error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict')
  );
}

/** Old images of failed conditions arrive as raw attribute values, even through the document client. */
export function oldImage(
  item: Record<string, AttributeValue> | undefined,
): Record<string, unknown> | undefined {
  return item === undefined ? undefined : unmarshall(item);
}

/**
 * How a store loop retries: `attempts` in all (the first included), and before retry n a wait drawn
 * at random below min(`capMs`, `baseMs` × 2ⁿ), "full jitter", so writers racing for one item spread
 * out instead of meeting again (docs/decisions/behaviour-under-faults.md).
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
