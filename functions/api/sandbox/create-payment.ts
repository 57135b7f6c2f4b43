import { type FieldProblem, InvalidFields } from '../../domain/errors';
import { typeIdMilliseconds } from '../../domain/id-time-bounds';
import { newId } from '../../domain/ids';
import { inShard, shardForNewItem } from '../../domain/merchant-shards';
import { newPayment, PaymentStatus, paymentCreatedEvent, paymentDeclinedEvent } from '../../domain/payment';
import { isoTimestamp } from '../../domain/time';
import { httpHandler } from '../../http/http-handler';
import { ValidationMessage } from '../../http/validation-messages';
import { sandboxProcessor } from '../../payments/processor-for-stage';
import { isReturnedLater } from '../../payments/sandbox-processor';
import { buildPutEvent } from '../../store/events';
import {
  buildPutPayment,
  callProcessor,
  completeProcessorCall,
  loadPaymentReferences,
  reserveProcessorCall,
} from '../../store/payments';
import { processorMethod } from '../payments/payment-method';
import { paymentView } from '../payments/payment-view';
import { sandboxRoutes } from './routes';

/**
 * Charges a test card or bank account. A decline is an answer, not an error: the payment is kept
 * as `declined` (201) with payments.PaymentDeclined. Reads: one BatchGetItem; writes: the
 * reservation, then the payment, its event and the stored response in one transaction.
 */
export const handler = httpHandler(
  sandboxRoutes.createSandboxPayment,
  async ({ body, idempotency, now, merchantShards }) => {
    const named =
      body.productId !== undefined && body.priceId !== undefined
        ? { productId: body.productId, priceId: body.priceId }
        : undefined;
    const references = await loadPaymentReferences(body.merchantId, body.customerId, named);
    const problems: FieldProblem[] = [];
    if (!references.customerExists) {
      problems.push({ path: 'customerId', message: ValidationMessage.existing('customer') });
    }
    if (named !== undefined) {
      if (references.price === undefined) {
        problems.push({ path: 'priceId', message: ValidationMessage.priceOfProduct });
      } else if (!references.price.productActive) {
        problems.push({ path: 'productId', message: ValidationMessage.activeProduct });
      } else if (references.price.currency !== body.currency) {
        problems.push({
          path: 'currency',
          message: ValidationMessage.priceCurrency(references.price.currency),
        });
      }
    }
    if (problems.length > 0) throw new InvalidFields(problems);

    const processor = sandboxProcessor();
    const method = processorMethod(body.paymentMethod);
    const paymentId = await reserveProcessorCall(idempotency, {
      callId: inShard(newId('pmt'), shardForNewItem(merchantShards, now)),
    });
    const charge = await callProcessor(idempotency, paymentId, undefined, () =>
      processor.charge({ amount: body.amount, currency: body.currency, method, idempotencyKey: paymentId }),
    );
    const payment = newPayment({
      paymentId,
      merchantId: body.merchantId,
      customerId: body.customerId,
      invoiceId: null,
      priceId: body.priceId ?? null,
      amount: body.amount,
      currency: body.currency,
      paymentMethodType: body.paymentMethod.type,
      processor: processor.name,
      charge,
      // Its createdAt is its id's time, so a createdFrom/createdTo range (a range of ids) holds it.
      now: isoTimestamp(new Date(typeIdMilliseconds(paymentId))),
    });
    const event =
      payment.status === PaymentStatus.declined
        ? paymentDeclinedEvent(payment, newId('evt'))
        : paymentCreatedEvent(payment, newId('evt'));
    const sandboxReturnable =
      payment.status === PaymentStatus.completed &&
      method.type === 'bank_account' &&
      isReturnedLater(method.accountNumber);
    return completeProcessorCall(idempotency, paymentId, { status: 201, body: paymentView(payment) }, [
      buildPutPayment(payment, { sandboxReturnable }),
      buildPutEvent(event, idempotency.requestId),
    ]);
  },
);
