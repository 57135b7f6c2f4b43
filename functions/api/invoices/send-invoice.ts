import { newId } from '../../domain/ids';
import { invoiceSentEvent, resendInvoice } from '../../domain/invoice';
import { isoTimestamp } from '../../domain/time';
import { httpHandler } from '../../http/http-handler';
import { changeInvoice, invoiceReplay } from './invoice-change';
import { invoiceRoutes } from './routes';

/** Resends an issued or partially paid invoice: invoices.InvoiceSent with resend true. */
export const handler = httpHandler(
  invoiceRoutes.sendInvoice,
  async ({ body, params, idempotency, now }) =>
    changeInvoice(idempotency, body.merchantId, params.id, (invoice) => {
      const next = resendInvoice(invoice, isoTimestamp(now));
      const event = invoiceSentEvent(next, true, newId('evt'), isoTimestamp(now));
      return { next, events: [event] };
    }),
  invoiceReplay,
);
