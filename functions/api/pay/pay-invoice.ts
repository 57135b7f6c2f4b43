import { typeIdMilliseconds } from '../../domain/id-time-bounds';
import { newId } from '../../domain/ids';
import { applyPayment, InvoiceStatus, invoicePaidEvent, isVisibleToPayer } from '../../domain/invoice';
import { inShard, merchantShardOfId } from '../../domain/merchant-shards';
import { newPayment, PaymentStatus, paymentCreatedEvent, paymentDeclinedEvent } from '../../domain/payment';
import { isoTimestamp } from '../../domain/time';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { paymentProcessor } from '../../payments/processor-for-stage';
import { buildPutEvent } from '../../store/events';
import {
  buildPayLinkPayment,
  buildRecordDecline,
  buildRecordDeclineOverFull,
  findPayLinkTarget,
  invoiceKeys,
  payLinkAsRead,
  payLinkDeclineAdmission,
} from '../../store/invoices';
import {
  buildPutPayment,
  callProcessor,
  completeProcessorCall,
  ProcessorCallBusy,
  reserveProcessorCall,
} from '../../store/payments';
import { processorMethod } from '../payments/payment-method';
import { invoiceNotFound } from './get-pay-invoice';
import { payInvoiceView, payPaymentView } from './pay-views';
import { checkPayable } from './payable';
import { payPageRoutes } from './routes';

const maxReads = 5;

/**
 * Public: pays the amount remaining of the invoice behind a pay-link slug. The invoice is locked
 * while the processor charges, so two payers (or two tabs) can't both pay it, and a merchant's
 * change waits for the charge. A completed charge moves the invoice to paid and emits
 * payments.PaymentCreated and invoices.InvoicePaid; a declined one leaves the invoice as it was
 * and emits payments.PaymentDeclined. Either way the answer is a 201 with the payment, whose decline
 * the payer sees only as the generic one. Past a limit on declines (PayLinkDeclineLimit) it is a 429.
 */
export const handler = httpHandler(payPageRoutes.payInvoice, async ({ body, idempotency, now }) => {
  // Before anything else: without a processor nothing here can succeed.
  const processor = paymentProcessor();
  const at = isoTimestamp(now);
  for (let read = 1; read <= maxReads; read += 1) {
    // The index may lag: once the invoice turned out to have changed, read only what was committed.
    const target = await findPayLinkTarget(body.slug, read === 1 ? 'indexed' : 'consistent');
    if (target === undefined || !isVisibleToPayer(target.invoice)) throw new NotFoundError(invoiceNotFound);
    const { invoice, merchantName } = target;
    checkPayable(invoice, body.amount, body.paymentMethod.type, at);
    const invoiceKey = invoiceKeys.invoice(invoice.merchantId, invoice.invoiceId);
    const paymentId = await reserveProcessorCall(idempotency, {
      // A public route has no authorizer answer: the payment goes to its invoice's shard.
      callId: inShard(newId('pmt'), merchantShardOfId(invoice.invoiceId)),
      lock: { key: invoiceKey, asRead: payLinkAsRead(target), admission: payLinkDeclineAdmission(now) },
    });
    if (paymentId === undefined) continue; // the invoice changed since it was read
    // The payment's time is its id's, so a createdFrom/createdTo range (a range of ids) holds it, and
    // the invoice is paid at that same time.
    const paymentAt = isoTimestamp(new Date(typeIdMilliseconds(paymentId)));
    const paid = applyPayment(invoice, body.amount, paymentAt);
    const charge = await callProcessor(idempotency, paymentId, invoiceKey, () =>
      processor.charge({
        amount: body.amount,
        currency: invoice.currency,
        method: processorMethod(body.paymentMethod),
        idempotencyKey: paymentId,
      }),
    );
    const payment = newPayment({
      paymentId,
      merchantId: invoice.merchantId,
      customerId: invoice.customerId,
      invoiceId: invoice.invoiceId,
      priceId: null,
      amount: body.amount,
      currency: invoice.currency,
      paymentMethodType: body.paymentMethod.type,
      processor: processor.name,
      charge,
      now: paymentAt,
    });
    const completed = payment.status === PaymentStatus.completed;
    const items = completed
      ? [
          // The receipt names the method's kind and the payment's id.
          buildPayLinkPayment(
            target,
            paid,
            paymentId,
            paid.status === InvoiceStatus.paid
              ? { methodKind: body.paymentMethod.type, reference: paymentId }
              : undefined,
          ),
          buildPutPayment(payment),
          buildPutEvent(paymentCreatedEvent(payment, newId('evt')), idempotency.requestId),
          ...(paid.status === InvoiceStatus.paid
            ? [buildPutEvent(invoicePaidEvent(paid, newId('evt')), idempotency.requestId)]
            : []),
        ]
      : [
          buildRecordDecline(invoiceKey, paymentId, now),
          buildPutPayment(payment),
          buildPutEvent(paymentDeclinedEvent(payment, newId('evt')), idempotency.requestId),
        ];
    const result = {
      payment: payPaymentView(payment),
      invoice: payInvoiceView(completed ? paid : invoice, merchantName),
    };
    return completeProcessorCall(idempotency, paymentId, { status: 201, body: result }, items, (failure) => {
      // A decline met a full history: it is rewritten from what the failed append found.
      const rewrite = completed
        ? undefined
        : buildRecordDeclineOverFull(invoiceKey, paymentId, now, failure.failureAt(1)?.existing);
      return rewrite === undefined ? undefined : [rewrite, ...items.slice(1)];
    });
  }
  throw new ProcessorCallBusy('The invoice keeps changing; reload it and try again.');
});
