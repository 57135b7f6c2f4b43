import { httpHandler } from '../../http/http-handler';
import { queryInvoices, toInvoice } from '../../store/invoices';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { invoiceRoutes } from './routes';

export const handler = httpHandler(invoiceRoutes.listInvoices, async ({ query, route, merchantShards }) => {
  const filters = { status: query.status, customerId: query.customerId };
  const scope = cursorScope(query.merchantId, route.operationId, filters);
  const page = await queryInvoices(
    query.merchantId,
    merchantShards,
    filters,
    query.limit,
    await startKeyOf(query.cursor, scope),
  );
  return { status: 200, body: await pageResponse(page, scope, toInvoice) };
});
