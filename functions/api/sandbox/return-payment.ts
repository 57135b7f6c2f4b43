import { RuleViolation } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { paymentReturnedEvent, returnPayment } from '../../domain/payment';
import { isoTimestamp } from '../../domain/time';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { sandboxProcessor } from '../../payments/processor-for-stage';
import { buildPutEvent } from '../../store/events';
import { commitWithIdempotency } from '../../store/idempotency';
import {
  buildApplyReturn,
  getPaymentRecord,
  isLockedByLiveCall,
  ProcessorCallBusy,
} from '../../store/payments';
import { TransactionConditionFailed } from '../../store/transaction';
import { paymentView } from '../payments/payment-view';
import { sandboxRoutes } from './routes';

const maxReads = 5;

/**
 * The sandbox's bank returns a payment from its returning test account (docs/sandbox-testing.md):
 * the payment becomes `returned` and payments.PaymentReturned carries what was not refunded.
 */
export const handler = httpHandler(
  sandboxRoutes.returnSandboxPayment,
  async ({ body, params, idempotency, now }) => {
    const at = isoTimestamp(now);
    for (let read = 1; read <= maxReads; read += 1) {
      const record = await getPaymentRecord(body.merchantId, params.paymentId);
      if (record === undefined) throw new NotFoundError('The payment does not exist.');
      const { payment } = record;
      const returned = returnPayment(payment, at);
      if (!record.sandboxReturnable) {
        throw new RuleViolation(
          'invalid_state',
          'The sandbox returns only payments from its returning test bank account (see docs/sandbox-testing.md).',
        );
      }
      const returnId = newId('ret');
      const reference = sandboxProcessor().returnReference({
        processorReferenceId: payment.processorReferenceId,
        idempotencyKey: returnId,
      });
      const event = paymentReturnedEvent(
        returned,
        { returnId, processorReferenceId: reference.processorReferenceId },
        newId('evt'),
      );
      try {
        return await commitWithIdempotency(idempotency, { status: 200, body: paymentView(returned) }, [
          buildApplyReturn(payment, returned, now),
          buildPutEvent(event, idempotency.requestId),
        ]);
      } catch (error) {
        const failed = error instanceof TransactionConditionFailed ? error.failureAt(0) : undefined;
        if (failed === undefined) throw error;
        if (isLockedByLiveCall(failed.existing, now)) {
          throw new ProcessorCallBusy(
            'A refund of this payment is being processed; try again in a few seconds.',
          );
        }
      }
    }
    throw new ProcessorCallBusy('The payment keeps changing; try again in a few seconds.');
  },
);
