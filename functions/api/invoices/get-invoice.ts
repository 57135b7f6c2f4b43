import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getInvoice } from '../../store/invoices';
import { invoiceRoutes } from './routes';

export const handler = httpHandler(invoiceRoutes.getInvoice, async ({ query, params }) => {
  const invoice = await getInvoice(query.merchantId, params.id);
  if (invoice === undefined) throw new NotFoundError('The invoice does not exist.');
  return { status: 200, body: invoice };
});
