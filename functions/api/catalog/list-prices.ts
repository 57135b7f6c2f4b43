import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { queryPrices, toPrice } from '../../store/prices';
import { getProduct } from '../../store/products';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { catalogRoutes } from './routes';

/** The product read and the price query run side by side: one round trip of latency, not two. */
export const handler = httpHandler(catalogRoutes.listPrices, async ({ query, params, route }) => {
  const scope = cursorScope(query.merchantId, route.operationId, { productId: params.productId });
  const startKey = await startKeyOf(query.cursor, scope);
  const [product, page] = await Promise.all([
    getProduct(query.merchantId, params.productId),
    queryPrices(query.merchantId, params.productId, query.limit, startKey),
  ]);
  if (product === undefined) throw new NotFoundError('The product does not exist.');
  return { status: 200, body: await pageResponse(page, scope, toPrice) };
});
