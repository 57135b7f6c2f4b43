import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { routes } from '../../routes';
import { getProduct } from '../../store/products';

/** Another merchant's product is looked up in the caller's own partition, so it is simply absent. */
export const handler = httpHandler(routes.getProduct, async ({ query, params }) => {
  const product = await getProduct(query.merchantId, params.productId);
  if (product === undefined) throw new NotFoundError('The product does not exist.');
  return { status: 200, body: product };
});
