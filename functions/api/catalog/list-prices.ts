import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getProduct, queryPrices, toPrice } from '../../store/catalog';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { catalogRoutes } from './routes';

/**
 * The price query comes first and the product is read only for an empty first page: products are
 * never deleted and a price exists only under its product in the caller's own partition, so a
 * price found (or a cursor, signed for this product's prices) proves the product is the caller's.
 */
export const handler = httpHandler(catalogRoutes.listPrices, async ({ query, params, route }) => {
  const scope = cursorScope(query.merchantId, route.operationId, { productId: params.productId });
  const startKey = await startKeyOf(query.cursor, scope);
  const page = await queryPrices(query.merchantId, params.productId, query.limit, startKey);
  if (page.items.length === 0 && startKey === undefined) {
    const product = await getProduct(query.merchantId, params.productId);
    if (product === undefined) throw new NotFoundError('The product does not exist.');
  }
  return { status: 200, body: await pageResponse(page, scope, toPrice) };
});
