import { httpHandler } from '../../http/http-handler';
import { routes } from '../../routes';
import { queryInvoices, toInvoice } from '../../store/invoices';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';

export const handler = httpHandler(routes.listInvoices, async ({ query, route }) => {
  const filters = { status: query.status, customerId: query.customerId };
  const scope = cursorScope(query.merchantId, route.operationId, filters);
  const page = await queryInvoices(
    query.merchantId,
    filters,
    query.limit,
    await startKeyOf(query.cursor, scope),
  );
  return { status: 200, body: await pageResponse(page, scope, toInvoice) };
});
