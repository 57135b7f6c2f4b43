import type * as z from 'zod/mini';
import { functionEnvironment } from '../../config';
import { InvoiceStatus, type PayerInvoice } from '../../domain/invoice';
import { PayerDecline } from '../../domain/pay-link-declines';
import type { Payment } from '../../domain/payment';
import { type PayInvoiceView, PayOn, type PayPaymentView } from './schemas';

/** What the payer sees: no ids, no slug, no customer or metadata. */
export function payInvoiceView(invoice: PayerInvoice, merchantName: string): z.output<typeof PayInvoiceView> {
  if (invoice.status === InvoiceStatus.draft) throw new Error('a draft invoice has no payer view');
  return {
    merchantName,
    invoiceNumber: invoice.invoiceNumber,
    status: invoice.status,
    currency: invoice.currency,
    lineItems: invoice.lineItems.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitAmount: line.unitAmount,
      lineTotal: line.lineTotal,
    })),
    productTotal: invoice.productTotal,
    total: invoice.total,
    amountPaid: invoice.amountPaid,
    amountRemaining: invoice.amountRemaining,
    dueDate: invoice.dueDate ?? null,
    paidAt: invoice.paidAt ?? null,
    acceptedPaymentMethods: [...invoice.acceptedPaymentMethods],
    // Production never takes card or account numbers itself (docs/processor.md#paying).
    payOn: functionEnvironment().STAGE === 'production' ? PayOn.processorCheckout : PayOn.payPage,
  };
}

/** What the payer sees of a payment: a decline only as the generic one, never the processor's reason. */
export function payPaymentView(payment: Payment): z.output<typeof PayPaymentView> {
  if (payment.status !== 'completed' && payment.status !== 'declined') {
    throw new Error(`a new payment is completed or declined, not ${payment.status}`);
  }
  return {
    paymentId: payment.paymentId,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    paymentMethodType: payment.paymentMethodType,
    declineCode: payment.status === 'declined' ? PayerDecline.code : null,
    declineMessage: payment.status === 'declined' ? PayerDecline.message : null,
    createdAt: payment.createdAt,
  };
}
