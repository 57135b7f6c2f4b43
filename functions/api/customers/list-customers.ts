import { httpHandler } from '../../http/http-handler';
import { queryCustomers, toCustomer } from '../../store/customers';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { customerRoutes } from './routes';

export const handler = httpHandler(customerRoutes.listCustomers, async ({ query, route }) => {
  const scope = cursorScope(query.merchantId, route.operationId);
  const page = await queryCustomers(query.merchantId, query.limit, await startKeyOf(query.cursor, scope));
  return { status: 200, body: await pageResponse(page, scope, toCustomer) };
});
