import { newId } from '../../domain/ids';
import { PaymentMethodType } from '../../domain/invoice';
import { PaymentStatus, paymentReturnedEvent, returnPayment } from '../../domain/payment';
import { ProcessorEventOutcome, type StripeEventFields } from '../../domain/processor-event';
import { isoTimestamp } from '../../domain/time';
import type { StripeDispute } from '../../payments/stripe/stripe-payment-events';
import { buildPutEvent } from '../../store/events';
import { buildApplyReturn, getPayment } from '../../store/payments';
import { getProcessorAccount } from '../../store/processor-accounts';
import { buildPutProcessorEvent, getProcessorObject } from '../../store/processor-events';
import { sendTransaction, TransactionConditionFailed } from '../../store/transaction';

/**
 * `charge.dispute.created` of a payment the service recorded: a bank debit's is its return, in one
 * transaction with the event's record (the payment `returned`, payments.PaymentReturned of what
 * was not refunded). A card's dispute, or a payment with nothing left to return, is recorded only.
 * The payment is found through its PaymentIntent's lookup; the account must be the merchant's.
 */
export async function applyStripeDispute(
  event: StripeEventFields,
  dispute: StripeDispute,
  context: { readonly now: Date; readonly requestId: string },
): Promise<{ outcome: ProcessorEventOutcome; merchantId?: string }> {
  const link = await getProcessorObject('stripe', dispute.paymentIntentId);
  if (link?.localId === undefined) return { outcome: ProcessorEventOutcome.unknownObject };
  const { merchantId } = link;
  const [account, payment] = await Promise.all([
    getProcessorAccount(merchantId),
    getPayment(merchantId, link.localId),
  ]);
  if (account?.processorAccountId !== event.account) return { outcome: ProcessorEventOutcome.unknownAccount };
  if (payment === undefined) return { outcome: ProcessorEventOutcome.unknownObject, merchantId };
  if (
    payment.paymentMethodType !== PaymentMethodType.bank_account ||
    payment.status !== PaymentStatus.completed
  ) {
    return { outcome: ProcessorEventOutcome.recorded, merchantId };
  }
  const returned = returnPayment(payment, isoTimestamp(context.now));
  const returnedEvent = paymentReturnedEvent(
    returned,
    { returnId: newId('ret'), processorReferenceId: dispute.disputeId },
    newId('evt'),
  );
  try {
    await sendTransaction([
      buildPutProcessorEvent(event, ProcessorEventOutcome.applied, context.now, merchantId),
      buildApplyReturn(payment, returned, context.now),
      buildPutEvent(returnedEvent, context.requestId),
    ]);
    return { outcome: ProcessorEventOutcome.applied, merchantId };
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failureAt(0) !== undefined) return { outcome: ProcessorEventOutcome.duplicate, merchantId };
    // The payment changed meanwhile (a refund at the processor): Stripe's retry reads it again.
    throw error;
  }
}
