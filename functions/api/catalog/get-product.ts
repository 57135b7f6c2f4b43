import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getProduct } from '../../store/catalog';
import { catalogRoutes } from './routes';

/** Another merchant's product is looked up in the caller's own partition, so it is simply absent. */
export const handler = httpHandler(catalogRoutes.getProduct, async ({ query, params }) => {
  const product = await getProduct(query.merchantId, params.productId);
  if (product === undefined) throw new NotFoundError('The product does not exist.');
  return { status: 200, body: product };
});
