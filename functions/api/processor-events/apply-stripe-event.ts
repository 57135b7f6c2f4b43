import {
  accountStateChangeOf,
  ProcessorEventOutcome,
  type StripeEventFields,
} from '../../domain/processor-event';
import { disputeOf, paymentAttemptOf, payoutOf, refundOf } from '../../payments/stripe/stripe-payment-events';
import { getProcessorAccount } from '../../store/processor-accounts';
import {
  buildApplyAccountState,
  buildPutAccountLookup,
  buildPutProcessorEvent,
} from '../../store/processor-events';
import { sendTransaction, TransactionConditionFailed } from '../../store/transaction';
import { applyStripePayment } from './apply-stripe-payment';
import { applyStripePayout } from './apply-stripe-payout';
import { applyStripeRefund } from './apply-stripe-refund';
import { applyStripeDispute } from './apply-stripe-return';

/** What an applier did, and the merchant it found where it found one. */
interface Applied {
  readonly outcome: ProcessorEventOutcome;
  readonly merchantId?: string | undefined;
}

type Context = { readonly now: Date; readonly requestId: string };

/**
 * The applier of an event's type, or undefined for `account.updated` and the types not mapped. Each
 * parser answers `unknown` for an object the service did not make.
 */
function applierOf(event: StripeEventFields, context: Context): (() => Promise<Applied>) | undefined {
  const unknown = async (): Promise<Applied> => ({ outcome: ProcessorEventOutcome.unknownObject });
  const attempt = paymentAttemptOf(event);
  if (attempt !== undefined) {
    if (attempt === 'unknown') return unknown;
    return async () => ({
      outcome: await applyStripePayment(event, attempt, context),
      merchantId: attempt.merchantId,
    });
  }
  const dispute = disputeOf(event);
  if (dispute !== undefined)
    return dispute === 'unknown' ? unknown : () => applyStripeDispute(event, dispute, context);
  const refund = refundOf(event);
  if (refund !== undefined)
    return refund === 'unknown' ? unknown : () => applyStripeRefund(event, refund, context);
  const payout = payoutOf(event);
  if (payout !== undefined)
    return payout === 'unknown' ? unknown : () => applyStripePayout(event, payout, context);
  return undefined;
}

/**
 * Records a verified Stripe event once and applies what it says, in one transaction
 * (docs/processor.md#stripes-events-in): `account.updated` moves the merchant's account to its state
 * unless a later event was applied first; a PaymentIntent's success or failure makes a payment, a
 * bank debit's dispute returns it, a refund's outcome settles it, a payout is recorded with its fees; any other type is recorded
 * only. A repeat finds its record and changes nothing; an event naming an account or object the
 * service does not know, or one that changes nothing, is recorded as such.
 */
export async function applyStripeEvent(
  event: StripeEventFields,
  context: Context,
): Promise<ProcessorEventOutcome> {
  const { now } = context;
  const apply = applierOf(event, context);
  if (apply !== undefined) {
    const { outcome, merchantId } = await apply();
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
      buildPutAccountLookup('stripe', change.processorAccountId, merchantId),
    ]);
    return ProcessorEventOutcome.applied;
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failureAt(0) !== undefined) return ProcessorEventOutcome.duplicate;
    // The account has applied a later event: this one is recorded, changing nothing.
    return recordOnly(event, ProcessorEventOutcome.stale, now, merchantId);
  }
}

/** The outcomes an applier decided without writing: the event's record is then written alone. */
function isRecordOnly(outcome: ProcessorEventOutcome): boolean {
  return (
    outcome === ProcessorEventOutcome.unknownAccount ||
    outcome === ProcessorEventOutcome.unknownObject ||
    outcome === ProcessorEventOutcome.recorded
  );
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
