import { newId } from '../../domain/ids';
import { invoiceSentEvent, issueInvoice } from '../../domain/invoice';
import { isoTimestamp } from '../../domain/time';
import { httpHandler } from '../../http/http-handler';
import { changeInvoice, invoiceReplay } from './invoice-change';
import { invoiceRoutes } from './routes';

/** Draft → issued, with invoices.InvoiceSent (resend false) in the same transaction. */
export const handler = httpHandler(
  invoiceRoutes.issueInvoice,
  async ({ body, params, idempotency, now }) =>
    changeInvoice(idempotency, body.merchantId, params.id, (invoice) => {
      const next = issueInvoice(invoice, isoTimestamp(now));
      const event = invoiceSentEvent(next, false, newId('evt'), isoTimestamp(now));
      return { next, events: [event] };
    }),
  invoiceReplay,
);
