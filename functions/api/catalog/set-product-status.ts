import { withStatus } from '../../domain/product';
import { isoTimestamp } from '../../domain/time';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { buildSetProductStatus, getProduct } from '../../store/catalog';
import { commitWithIdempotency } from '../../store/idempotency';
import { catalogRoutes } from './routes';

/** Setting the current status again is a 200 that changes nothing but the idempotency record. */
export const handler = httpHandler(
  catalogRoutes.setProductStatus,
  async ({ body, params, idempotency, now }) => {
    const product = await getProduct(body.merchantId, params.productId);
    if (product === undefined) throw new NotFoundError('The product does not exist.');
    const updated = withStatus(product, body.status);
    const changes =
      product.status === body.status ? [] : [buildSetProductStatus(product, body.status, isoTimestamp(now))];
    return commitWithIdempotency(idempotency, { status: 200, body: updated }, changes);
  },
);
