import { httpHandler } from '../../http/http-handler';
import { routes } from '../../routes';
import { queryCustomers, toCustomer } from '../../store/customers';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';

export const handler = httpHandler(routes.listCustomers, async ({ query, route }) => {
  const scope = cursorScope(query.merchantId, route.operationId);
  const page = await queryCustomers(query.merchantId, query.limit, await startKeyOf(query.cursor, scope));
  return { status: 200, body: await pageResponse(page, scope, toCustomer) };
});
