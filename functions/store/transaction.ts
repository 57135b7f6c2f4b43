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

const maxConflictRetries = 10;

/**
 * Sends one TransactWriteItems. A conflict with another in-flight transaction is retried with
 * full jitter; a failed condition becomes a TransactionConditionFailed carrying the old images
 * (every conditional item asks for ALL_OLD), so callers never need a second read to learn why.
 */
export async function sendTransaction(items: TransactItems): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failures = reasons.flatMap((reason, index) =>
        reason.Code === 'ConditionalCheckFailed' ? [{ index, existing: oldImage(reason.Item) }] : [],
      );
      if (failures.length > 0) throw new TransactionConditionFailed(failures, { cause: error });
      const conflicted = reasons.some((reason) => reason.Code === 'TransactionConflict');
      if (!conflicted || attempt >= maxConflictRetries) throw error;
      await sleep(Math.random() * Math.min(100, 10 * 2 ** attempt));
    }
  }
}

/** Old images of failed conditions arrive as raw attribute values, even through the document client. */
export function oldImage(
  item: Record<string, AttributeValue> | undefined,
): Record<string, unknown> | undefined {
  return item === undefined ? undefined : unmarshall(item);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
