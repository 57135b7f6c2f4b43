import { httpHandler } from '../../http/http-handler';
import { queryProducts, toProduct } from '../../store/catalog';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { catalogRoutes } from './routes';

export const handler = httpHandler(catalogRoutes.listProducts, async ({ query, route }) => {
  const scope = cursorScope(query.merchantId, route.operationId);
  const page = await queryProducts(query.merchantId, query.limit, await startKeyOf(query.cursor, scope));
  return { status: 200, body: await pageResponse(page, scope, toProduct) };
});
