import { newId } from '../../domain/ids';
import { invoiceSentEvent, issueInvoice } from '../../domain/invoice';
import { isoTimestamp } from '../../domain/time';
import { httpHandler } from '../../http/http-handler';
import { routes } from '../../routes';
import { changeInvoice } from './invoice-change';

/** Draft → issued, with invoices.InvoiceSent (resend false) in the same transaction. */
export const handler = httpHandler(routes.issueInvoice, async ({ body, params, idempotency, now }) =>
  changeInvoice(idempotency, body.merchantId, params.id, (invoice) => {
    const next = issueInvoice(invoice, isoTimestamp(now));
    const event = invoiceSentEvent(next, false, newId('evt'), isoTimestamp(now));
    return { next, events: [event] };
  }),
);
