import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { queryEmailsOfInvoice, toEmail } from '../../store/invoice-emails';
import { getInvoice } from '../../store/invoices';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { invoiceEmailView } from './invoice-email-view';
import { invoiceRoutes } from './routes';

/**
 * 404 unless the invoice is the caller's; the cursor is bound to the invoice. The invoice is read
 * beside the page (two reads, one wait): an invoice's emails are no proof it is the caller's.
 */
export const handler = httpHandler(invoiceRoutes.listInvoiceEmails, async ({ query, params, route }) => {
  const scope = cursorScope(query.merchantId, route.operationId, { invoiceId: params.id });
  const startKey = await startKeyOf(query.cursor, scope);
  const [page, invoice] = await Promise.all([
    queryEmailsOfInvoice(query.merchantId, params.id, query.limit, startKey),
    getInvoice(query.merchantId, params.id),
  ]);
  if (invoice === undefined) throw new NotFoundError('The invoice does not exist.');
  return { status: 200, body: await pageResponse(page, scope, (item) => invoiceEmailView(toEmail(item))) };
});
