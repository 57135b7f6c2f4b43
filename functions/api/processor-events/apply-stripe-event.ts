import {
  accountStateChangeOf,
  ProcessorEventOutcome,
  type StripeEventFields,
} from '../../domain/processor-event';
import { paymentAttemptOf } from '../../payments/stripe/stripe-payment-events';
import { getProcessorAccount } from '../../store/processor-accounts';
import { buildApplyAccountState, buildPutProcessorEvent } from '../../store/processor-events';
import { sendTransaction, TransactionConditionFailed } from '../../store/transaction';
import { applyStripePayment } from './apply-stripe-payment';

/**
 * Records a verified Stripe event once and applies what it says, in one transaction: `account.updated`
 * moves the merchant's account to its state unless a later event was applied first; a PaymentIntent's
 * success or failure makes a payment (`applyStripePayment`); any other type is recorded only. A
 * repeat finds its record and changes nothing; an event naming an account or object the service
 * does not know is recorded as such.
 */
export async function applyStripeEvent(
  event: StripeEventFields,
  context: { readonly now: Date; readonly requestId: string },
): Promise<ProcessorEventOutcome> {
  const { now } = context;
  const attempt = paymentAttemptOf(event);
  if (attempt !== undefined) {
    const outcome =
      attempt === 'unknown'
        ? ProcessorEventOutcome.unknownObject
        : await applyStripePayment(event, attempt, context);
    const merchantId = attempt === 'unknown' ? undefined : attempt.merchantId;
    return isRecordOnly(outcome) ? recordOnly(event, outcome, now, merchantId) : outcome;
  }
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

function isRecordOnly(outcome: ProcessorEventOutcome): boolean {
  return outcome === ProcessorEventOutcome.unknownAccount || outcome === ProcessorEventOutcome.unknownObject;
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
