import { measuredProcessorCall } from '../processor-metrics';
import { stripeFault } from './stripe-faults';
import type { StripePayout } from './stripe-payment-events';
import { stripePlatform } from './stripe-platform';

/** More balance transactions than one payout can carry here: past it the event fails and Stripe retries. */
const maxTransactions = 10_000;

/**
 * Gross, fee and net of a connected account's payout. The payout's amount is the net; the fees are
 * those of the balance transactions it pays out (Stripe's fees on each charge, refund and dispute),
 * which Stripe lists for an automatic payout, so the gross is the net plus them. A manual payout
 * pays out a balance Stripe does not itemize: its fee is 0 and its gross its net.
 */
export async function stripePayoutAmounts(
  payout: StripePayout,
  processorAccountId: string,
): Promise<{ grossAmount: number; feeAmount: number; netAmount: number }> {
  const netAmount = payout.netAmount;
  if (!payout.automatic) return { grossAmount: netAmount, feeAmount: 0, netAmount };
  const { stripe } = await stripePlatform();
  const transactions = await measuredProcessorCall(() =>
    stripe.balanceTransactions
      .list({ payout: payout.payoutId, limit: 100 }, { stripeAccount: processorAccountId })
      .autoPagingToArray({ limit: maxTransactions })
      .catch((error: unknown) => {
        throw stripeFault(error, 'balanceTransactions.list');
      }),
  );
  const feeAmount = transactions
    .filter((transaction) => transaction.type !== 'payout')
    .reduce((sum, transaction) => sum + transaction.fee, 0);
  return { grossAmount: netAmount + feeAmount, feeAmount, netAmount };
}
