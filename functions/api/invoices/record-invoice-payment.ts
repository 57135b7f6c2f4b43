import { newId } from '../../domain/ids';
import { applyPayment, InvoiceStatus, invoicePaidEvent } from '../../domain/invoice';
import { isoTimestamp } from '../../domain/time';
import { httpHandler } from '../../http/http-handler';
import { buildPutInvoicePayment } from '../../store/invoices';
import { changeInvoice, invoiceReplay } from './invoice-change';
import { invoiceRoutes } from './routes';

/** An out-of-band payment; the one that completes the invoice also emits invoices.InvoicePaid. */
export const handler = httpHandler(
  invoiceRoutes.recordInvoicePayment,
  async ({ body, params, idempotency, now }) =>
    changeInvoice(idempotency, body.merchantId, params.id, (invoice) => {
      const at = isoTimestamp(now);
      const next = applyPayment(invoice, body.amount, at);
      const record = buildPutInvoicePayment({
        merchantId: next.merchantId,
        invoiceId: next.invoiceId,
        paymentRecordId: newId('pmt'),
        amount: body.amount,
        currency: next.currency,
        reference: body.reference,
        recordedAt: at,
      });
      const paid = next.status === InvoiceStatus.paid;
      return {
        next,
        items: [record],
        events: paid ? [invoicePaidEvent(next, newId('evt'))] : [],
        ...(paid ? { paidWith: { methodKind: 'out_of_band', reference: body.reference } } : {}),
      };
    }),
  invoiceReplay,
);
