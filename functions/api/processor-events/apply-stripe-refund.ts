import { RuleViolation } from '../../domain/errors';
import { newId } from '../../domain/ids';
import {
  confirmPendingRefund,
  newRefund,
  type Payment,
  paymentRefundedEvent,
  type Refund,
  RefundStatus,
  refundPayment,
  releasePendingRefund,
} from '../../domain/payment';
import { ProcessorEventOutcome, type StripeEventFields } from '../../domain/processor-event';
import { isoTimestamp } from '../../domain/time';
import type { StripeRefund } from '../../payments/stripe/stripe-payment-events';
import { buildPutEvent } from '../../store/events';
import {
  buildPutRefund,
  buildSettlePendingRefund,
  buildSettleRefund,
  getPayment,
  getRefundAndPayment,
  isLockedByLiveCall,
} from '../../store/payments';
import { getProcessorAccount } from '../../store/processor-accounts';
import {
  buildPutProcessorEvent,
  buildPutProcessorObject,
  getProcessorObject,
} from '../../store/processor-events';
import { sendTransaction, TransactionConditionFailed } from '../../store/transaction';

type Context = { readonly now: Date; readonly requestId: string };
type Applied = { outcome: ProcessorEventOutcome; merchantId?: string };

/**
 * A Stripe refund's event (docs/processor.md#refunds). A refund the merchant asked for here is
 * found by its lookup: Stripe's `succeeded` confirms it (the payment's amounts, the refund
 * `succeeded`, payments.PaymentRefunded), `failed` or `canceled` releases its amount (the refund
 * `failed`). A refund made on Stripe's side (the merchant's dashboard) is applied once it succeeds,
 * as a new refund. Anything else (still pending, settled already) is recorded only.
 */
export async function applyStripeRefund(
  event: StripeEventFields,
  refund: StripeRefund,
  context: Context,
): Promise<Applied> {
  const [own, charged] = await Promise.all([
    getProcessorObject('stripe', refund.stripeRefundId),
    getProcessorObject('stripe', refund.paymentIntentId),
  ]);
  if (charged?.localId === undefined) return { outcome: ProcessorEventOutcome.unknownObject };
  const { merchantId } = charged;
  // A refund asked for here is read with its payment, in one read.
  const [account, { payment, refund: stored }] = await Promise.all([
    getProcessorAccount(merchantId),
    own?.localId === undefined
      ? getPayment(merchantId, charged.localId).then((found) => ({ payment: found, refund: undefined }))
      : getRefundAndPayment(merchantId, charged.localId, own.localId),
  ]);
  if (account?.processorAccountId !== event.account) return { outcome: ProcessorEventOutcome.unknownAccount };
  if (payment === undefined) return { outcome: ProcessorEventOutcome.unknownObject, merchantId };
  if (own?.localId !== undefined) return settleOwnRefund(event, refund, stored, payment, context);
  // Asked for here and not recorded yet: the request is still completing; Stripe's retry finds it.
  if (refund.refundId !== null) throw new Error('A refund asked for here is not recorded yet.');
  if (refund.outcome !== 'succeeded') return { outcome: ProcessorEventOutcome.recorded, merchantId };
  return applyRefundMadeAtStripe(event, refund, payment, context);
}

async function settleOwnRefund(
  event: StripeEventFields,
  refund: StripeRefund,
  stored: Refund | undefined,
  payment: Payment,
  context: Context,
): Promise<Applied> {
  const { merchantId } = payment;
  if (stored?.status !== RefundStatus.pending || refund.outcome === 'pending') {
    return { outcome: ProcessorEventOutcome.recorded, merchantId };
  }
  const at = isoTimestamp(context.now);
  const succeeded = refund.outcome === 'succeeded';
  const next = succeeded
    ? confirmPendingRefund(payment, stored.amount, at)
    : releasePendingRefund(payment, stored.amount, at);
  const settled = {
    ...stored,
    status: succeeded ? RefundStatus.succeeded : RefundStatus.failed,
    paymentStatus: next.status,
  };
  return send(
    [
      buildPutProcessorEvent(event, ProcessorEventOutcome.applied, context.now, merchantId),
      buildSettleRefund(merchantId, payment.paymentId, stored.id, settled.status),
      buildSettlePendingRefund(payment, next, context.now),
      ...(succeeded
        ? [buildPutEvent(paymentRefundedEvent(next, settled, newId('evt')), context.requestId)]
        : []),
    ],
    merchantId,
    payment,
    context.now,
  );
}

async function applyRefundMadeAtStripe(
  event: StripeEventFields,
  refund: StripeRefund,
  payment: Payment,
  context: Context,
): Promise<Applied> {
  const { merchantId } = payment;
  const at = isoTimestamp(context.now);
  let next: Payment;
  try {
    next = refundPayment(payment, refund.amount, at);
  } catch (error) {
    // More than is left here (a refund asked for here meanwhile holds it): recorded, and logged by the caller.
    if (error instanceof RuleViolation) return { outcome: ProcessorEventOutcome.recorded, merchantId };
    throw error;
  }
  const made = newRefund({
    refundId: newId('refund'),
    refundedPayment: next,
    amount: refund.amount,
    processorReferenceId: refund.stripeRefundId,
    now: at,
  });
  const lookup = { merchantId, localId: made.id, parentId: payment.paymentId };
  return send(
    [
      buildPutProcessorEvent(event, ProcessorEventOutcome.applied, context.now, merchantId),
      buildPutProcessorObject('stripe', refund.stripeRefundId, lookup),
      buildSettlePendingRefund(payment, next, context.now),
      buildPutRefund(merchantId, made),
      buildPutEvent(paymentRefundedEvent(next, made, newId('evt')), context.requestId),
    ],
    merchantId,
    payment,
    context.now,
  );
}

/**
 * One transaction. The event's record or the refund's state failing is a repeat (the refund was
 * settled by another event of it); the payment failing means it changed, or a refund of it is at
 * Stripe now: an error, so that Stripe sends the event again later.
 */
async function send(
  items: readonly object[],
  merchantId: string,
  payment: Payment,
  now: Date,
): Promise<Applied> {
  try {
    await sendTransaction(items as Parameters<typeof sendTransaction>[0]);
    return { outcome: ProcessorEventOutcome.applied, merchantId };
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failureAt(0) !== undefined || error.failureAt(1) !== undefined) {
      return { outcome: ProcessorEventOutcome.duplicate, merchantId };
    }
    const locked = isLockedByLiveCall(error.failureAt(2)?.existing, now);
    throw new Error(
      `The payment ${payment.paymentId} changed${locked ? ' (a refund is at Stripe)' : ''}; Stripe retries.`,
    );
  }
}
