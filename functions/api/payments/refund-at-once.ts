import { newId } from '../../domain/ids';
import { newRefund, paymentRefundedEvent, refundableAmount, refundPayment } from '../../domain/payment';
import { isoTimestamp } from '../../domain/time';
import { NotFoundError } from '../../http/errors';
import type { PaymentProcessor } from '../../payments/payment-processor';
import { buildPutEvent } from '../../store/events';
import type { IdempotencyContext, StoredResponse } from '../../store/idempotency';
import {
  buildApplyRefund,
  buildPutRefund,
  callProcessor,
  completeProcessorCall,
  getPayment,
  ProcessorCallBusy,
  paymentAsRead,
  paymentKeys,
  reserveProcessorCall,
} from '../../store/payments';

/** A payment changed by another request while this one read it is read again, a few times at most. */
const maxReads = 5;

/** What a refund request names: the payment, its merchant, and the amount (everything left by default). */
export interface RefundRequest {
  readonly merchantId: string;
  readonly paymentId: string;
  readonly amount: number | undefined;
  readonly idempotency: IdempotencyContext;
  readonly now: Date;
}

/** The amount a request refunds: as asked, else all that is left, and at least 1 (a payment with none left is refused for its state). */
export function requestedAmount(amount: number | undefined, left: number): number {
  return amount ?? Math.max(1, left);
}

/**
 * A refund by a processor that refunds at once (the sandbox's): part or all of what is left (never
 * more: 409). The payment is locked while the processor refunds, so two refunds can't both take
 * the same remainder; the refund, the payment's new amounts and payments.PaymentRefunded are then
 * written in one transaction.
 */
export async function refundAtOnce(
  processor: PaymentProcessor,
  request: RefundRequest,
): Promise<StoredResponse> {
  const { idempotency, now } = request;
  const at = isoTimestamp(now);
  for (let read = 1; read <= maxReads; read += 1) {
    const payment = await getPayment(request.merchantId, request.paymentId);
    if (payment === undefined) throw new NotFoundError('The payment does not exist.');
    const amount = requestedAmount(request.amount, refundableAmount(payment));
    const refunded = refundPayment(payment, amount, at);
    const paymentKey = paymentKeys.payment(payment.merchantId, payment.paymentId);
    const refundId = await reserveProcessorCall(idempotency, {
      callId: newId('refund'),
      lock: { key: paymentKey, asRead: paymentAsRead(payment) },
    });
    if (refundId === undefined) continue; // the payment changed since it was read
    const result = await callProcessor(idempotency, refundId, paymentKey, () =>
      processor.refund({
        processorReferenceId: payment.processorReferenceId,
        amount,
        currency: payment.currency,
        idempotencyKey: refundId,
      }),
    );
    const refund = newRefund({
      refundId,
      refundedPayment: refunded,
      amount,
      processorReferenceId: result.processorReferenceId,
      now: at,
    });
    return completeProcessorCall(idempotency, refundId, { status: 201, body: refund }, [
      buildApplyRefund(refunded, refundId),
      buildPutRefund(payment.merchantId, refund),
      buildPutEvent(paymentRefundedEvent(refunded, refund, newId('evt')), idempotency.requestId),
    ]);
  }
  throw new ProcessorCallBusy('The payment keeps changing; try again in a few seconds.');
}
