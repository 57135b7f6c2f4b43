import { newId } from '../../domain/ids';
import { newRefund, paymentRefundedEvent, refundPayment } from '../../domain/payment';
import { isoTimestamp } from '../../domain/time';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { sandboxProcessor } from '../../payments/processor-for-stage';
import { buildPutEvent } from '../../store/events';
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
import { sandboxRoutes } from './routes';

/** A payment changed by another request while this one read it is read again, a few times at most. */
const maxReads = 5;

/**
 * Refunds part or all of what is left (never more: 409). The payment is locked while the processor
 * refunds, so two refunds can't both take the same remainder; the refund, the payment's new
 * amounts and payments.PaymentRefunded are then written in one transaction.
 */
export const handler = httpHandler(
  sandboxRoutes.refundSandboxPayment,
  async ({ body, params, idempotency, now }) => {
    const processor = sandboxProcessor();
    const at = isoTimestamp(now);
    for (let read = 1; read <= maxReads; read += 1) {
      const payment = await getPayment(body.merchantId, params.paymentId);
      if (payment === undefined) throw new NotFoundError('The payment does not exist.');
      // Everything left by default; at least 1, so a payment with nothing left is refused for its state.
      const amount = body.amount ?? Math.max(1, payment.amount - payment.amountRefunded);
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
  },
);
