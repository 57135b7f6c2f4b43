import type { Payment } from '../../domain/payment';

/**
 * The payment as the API shows it: the listed payment fields plus the decline of a
 * declined payment (docs/decisions/payments-read-api.md); instrument and price stay internal.
 */
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
    declineCode: payment.declineCode,
    declineMessage: payment.declineMessage,
    createdAt: payment.createdAt,
    updatedAt: payment.updatedAt,
  };
}
