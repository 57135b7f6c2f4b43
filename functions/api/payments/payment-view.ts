import type { Payment } from '../../domain/payment';

/** The payment as the API shows it (DESIGN §4 "Payments listing"); instrument and price stay internal. */
export function paymentView(payment: Payment) {
  return {
    paymentId: payment.paymentId,
    merchantId: payment.merchantId,
    customerId: payment.customerId,
    invoiceId: payment.invoiceId,
    amount: payment.amount,
    amountRefunded: payment.amountRefunded,
    currency: payment.currency,
    status: payment.status,
    paymentMethodType: payment.paymentMethodType,
    processor: payment.processor,
    processorReferenceId: payment.processorReferenceId,
    createdAt: payment.createdAt,
    updatedAt: payment.updatedAt,
  };
}
