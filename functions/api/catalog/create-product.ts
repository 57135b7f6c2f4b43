import { newId } from '../../domain/ids';
import { newProduct } from '../../domain/product';
import { isoTimestamp } from '../../domain/time';
import { httpHandler } from '../../http/http-handler';
import { buildPutProduct } from '../../store/catalog';
import { commitWithIdempotency } from '../../store/idempotency';
import { catalogRoutes } from './routes';

/** One write round trip: the product and its idempotency record in one transaction, no read first. */
export const handler = httpHandler(catalogRoutes.createProduct, async ({ body, idempotency, now }) => {
  const product = newProduct({
    productId: newId('prod'),
    merchantId: body.merchantId,
    name: body.name,
    description: body.description,
    createdAt: isoTimestamp(now),
  });
  return commitWithIdempotency(idempotency, { status: 201, body: product }, [buildPutProduct(product)]);
});
