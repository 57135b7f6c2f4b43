import { newId } from '../../domain/ids';
import { issueWithEvents } from '../../domain/invoice';
import { isoTimestamp } from '../../domain/time';
import { httpHandler } from '../../http/http-handler';
import { changeInvoice, invoiceReplay } from './invoice-change';
import { invoiceRoutes } from './routes';

/**
 * Draft → issued, with invoices.InvoiceSent (resend false) in the same transaction; an invoice of
 * total 0 is paid at once, with invoices.InvoicePaid after it.
 */
export const handler = httpHandler(
  invoiceRoutes.issueInvoice,
  async ({ body, params, idempotency, now }) =>
    changeInvoice(idempotency, body.merchantId, params.id, (invoice) =>
      issueWithEvents(invoice, isoTimestamp(now), () => newId('evt')),
    ),
  invoiceReplay,
);
