import { functionEnvironment } from '../../config';
import { RuleViolation } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { holdPendingRefund, newRefund, RefundStatus, refundableAmount } from '../../domain/payment';
import { isoTimestamp } from '../../domain/time';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { sandboxProcessor } from '../../payments/processor-for-stage';
import { createStripeRefund } from '../../payments/stripe/stripe-refunds';
import type { StoredResponse } from '../../store/idempotency';
import {
  buildHoldPendingRefund,
  buildPutRefund,
  callProcessor,
  completeProcessorCall,
  getPayment,
  ProcessorCallBusy,
  paymentAsRead,
  paymentKeys,
  reserveProcessorCall,
} from '../../store/payments';
import { getProcessorAccount } from '../../store/processor-accounts';
import { buildPutProcessorObject } from '../../store/processor-events';
import { type RefundRequest, refundAtOnce, requestedAmount } from './refund-at-once';
import { paymentRoutes } from './routes';

const maxReads = 5;

/**
 * A merchant's refund of part or all of what is left of a payment (never more: 409). In the sandbox
 * the simulator refunds at once (payments.PaymentRefunded now); in production Stripe is asked on the
 * merchant's connected account and the refund is `pending` until Stripe's event confirms it
 * (docs/processor.md#refunds).
 */
export const handler = httpHandler(paymentRoutes.createRefund, async ({ body, params, idempotency, now }) => {
  const request = {
    merchantId: body.merchantId,
    paymentId: params.paymentId,
    amount: body.amount,
    idempotency,
    now,
  };
  return functionEnvironment().STAGE === 'sandbox'
    ? refundAtOnce(sandboxProcessor(), request)
    : requestStripeRefund(request);
});

/**
 * The payment is locked while Stripe is asked, so two refunds can't both take the same remainder;
 * then the refund (`pending`), the amount held as pending on the payment, and the refund's lookup by
 * Stripe's id are written in one transaction.
 */
async function requestStripeRefund(request: RefundRequest): Promise<StoredResponse> {
  const { idempotency, now } = request;
  const at = isoTimestamp(now);
  for (let read = 1; read <= maxReads; read += 1) {
    const [payment, account] = await Promise.all([
      getPayment(request.merchantId, request.paymentId),
      getProcessorAccount(request.merchantId),
    ]);
    if (payment === undefined) throw new NotFoundError('The payment does not exist.');
    const amount = requestedAmount(request.amount, refundableAmount(payment));
    const held = holdPendingRefund(payment, amount, at);
    if (payment.processor !== 'stripe' || account === undefined) {
      throw new RuleViolation('invalid_state', 'Only a payment taken through Stripe can be refunded here.');
    }
    const paymentKey = paymentKeys.payment(payment.merchantId, payment.paymentId);
    const refundId = await reserveProcessorCall(idempotency, {
      callId: newId('refund'),
      lock: { key: paymentKey, asRead: paymentAsRead(payment) },
    });
    if (refundId === undefined) continue; // the payment changed since it was read
    const asked = await callProcessor(idempotency, refundId, paymentKey, () =>
      createStripeRefund({
        processorAccountId: account.processorAccountId,
        paymentIntentId: payment.processorReferenceId,
        amount,
        merchantId: payment.merchantId,
        paymentId: payment.paymentId,
        refundId,
        idempotencyKey: `merchant-payments-${idempotency.scopeHash}-refund`,
      }),
    );
    const refund = newRefund({
      refundId,
      refundedPayment: held,
      amount,
      processorReferenceId: asked.processorReferenceId,
      now: at,
      status: RefundStatus.pending,
    });
    const lookup = { merchantId: payment.merchantId, localId: refundId, parentId: payment.paymentId };
    return completeProcessorCall(idempotency, refundId, { status: 201, body: refund }, [
      buildHoldPendingRefund(held, refundId),
      buildPutRefund(payment.merchantId, refund),
      buildPutProcessorObject('stripe', asked.processorReferenceId, lookup),
    ]);
  }
  throw new ProcessorCallBusy('The payment keeps changing; try again in a few seconds.');
}
