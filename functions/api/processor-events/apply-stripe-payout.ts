import { newId } from '../../domain/ids';
import { type Payout, payoutCreatedEvent } from '../../domain/payment';
import { ProcessorEventOutcome, type StripeEventFields } from '../../domain/processor-event';
import { isoTimestamp } from '../../domain/time';
import type { StripePayout } from '../../payments/stripe/stripe-payment-events';
import { stripePayoutAmounts } from '../../payments/stripe/stripe-payouts';
import { buildPutEvent } from '../../store/events';
import { buildPutPayout } from '../../store/payments';
import {
  buildPutProcessorEvent,
  buildPutProcessorObject,
  getProcessorObject,
} from '../../store/processor-events';
import { sendTransaction, TransactionConditionFailed } from '../../store/transaction';

/**
 * `payout.created` of a linked account: a payout (gross, fee, net) and payouts.PayoutCreated, in one
 * transaction with the event's record and the payout's lookup (one payout per Stripe payout,
 * whatever Stripe resends). The merchant is the one whose account it is, by the account's lookup.
 */
export async function applyStripePayout(
  event: StripeEventFields,
  stripePayout: StripePayout,
  context: { readonly now: Date; readonly requestId: string },
): Promise<{ outcome: ProcessorEventOutcome; merchantId?: string }> {
  const account = typeof event.account === 'string' ? event.account : undefined;
  const owner = account === undefined ? undefined : await getProcessorObject('stripe', account);
  if (account === undefined || owner === undefined) return { outcome: ProcessorEventOutcome.unknownAccount };
  const { merchantId } = owner;
  const amounts = await stripePayoutAmounts(stripePayout, account);
  const payout: Payout = {
    payoutId: newId('po'),
    merchantId,
    payoutAccountId: stripePayout.destinationId ?? account,
    processor: 'stripe',
    ...amounts,
    currency: stripePayout.currency,
    createdAt: isoTimestamp(context.now),
  };
  try {
    await sendTransaction([
      buildPutProcessorEvent(event, ProcessorEventOutcome.applied, context.now, merchantId),
      buildPutProcessorObject('stripe', stripePayout.payoutId, { merchantId, localId: payout.payoutId }),
      buildPutPayout(payout),
      buildPutEvent(payoutCreatedEvent(payout, newId('evt')), context.requestId),
    ]);
    return { outcome: ProcessorEventOutcome.applied, merchantId };
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    // Its record (a repeat) or its lookup (the same payout under another event id).
    if (error.failureAt(0) !== undefined || error.failureAt(1) !== undefined) {
      return { outcome: ProcessorEventOutcome.duplicate, merchantId };
    }
    throw error;
  }
}
