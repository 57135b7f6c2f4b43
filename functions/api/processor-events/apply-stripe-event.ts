import {
  accountStateChangeOf,
  ProcessorEventOutcome,
  type StripeEventFields,
} from '../../domain/processor-event';
import { getProcessorAccount } from '../../store/processor-accounts';
import { buildApplyAccountState, buildPutProcessorEvent } from '../../store/processor-events';
import { sendTransaction, TransactionConditionFailed } from '../../store/transaction';

/**
 * Records a verified Stripe event once and applies what it says, in one transaction: `account.updated`
 * moves the merchant's account to its state unless a later event was applied first; any other type
 * is recorded only, for now. A repeat finds its record and changes nothing.
 */
export async function applyStripeEvent(event: StripeEventFields, now: Date): Promise<ProcessorEventOutcome> {
  const change = accountStateChangeOf(event);
  if (change === undefined) return recordOnly(event, ProcessorEventOutcome.recorded, now, undefined);
  const { merchantId } = change;
  const account = merchantId === undefined ? undefined : await getProcessorAccount(merchantId);
  if (merchantId === undefined || account?.processorAccountId !== change.processorAccountId) {
    return recordOnly(event, ProcessorEventOutcome.unknownAccount, now, undefined);
  }
  try {
    await sendTransaction([
      buildPutProcessorEvent(event, ProcessorEventOutcome.applied, now, merchantId),
      buildApplyAccountState({ ...change, merchantId }, event, now),
    ]);
    return ProcessorEventOutcome.applied;
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failureAt(0) !== undefined) return ProcessorEventOutcome.duplicate;
    // The account has applied a later event: this one is recorded, changing nothing.
    return recordOnly(event, ProcessorEventOutcome.stale, now, merchantId);
  }
}

async function recordOnly(
  event: StripeEventFields,
  outcome: ProcessorEventOutcome,
  now: Date,
  merchantId: string | undefined,
): Promise<ProcessorEventOutcome> {
  try {
    await sendTransaction([buildPutProcessorEvent(event, outcome, now, merchantId)]);
    return outcome;
  } catch (error) {
    if (error instanceof TransactionConditionFailed && error.failureAt(0) !== undefined) {
      return ProcessorEventOutcome.duplicate;
    }
    throw error;
  }
}
