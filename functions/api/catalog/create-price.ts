import { newId } from '../../domain/ids';
import { newPrice } from '../../domain/price';
import { isoTimestamp } from '../../domain/time';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { buildProductExistsCheck, buildPutPrice } from '../../store/catalog';
import { commitWithIdempotency } from '../../store/idempotency';
import { TransactionConditionFailed } from '../../store/transaction';
import { catalogRoutes } from './routes';

/**
 * One write round trip: the price, a check that the product is the caller's, and the idempotency
 * record in one transaction. A failed check is a 404, which the idempotency middleware stores.
 */
export const handler = httpHandler(catalogRoutes.createPrice, async ({ body, params, idempotency, now }) => {
  const price = newPrice({
    priceId: newId('price'),
    productId: params.productId,
    merchantId: body.merchantId,
    unitAmount: body.unitAmount,
    currency: body.currency,
    createdAt: isoTimestamp(now),
  });
  const productCheckIndex = 1;
  try {
    return await commitWithIdempotency(idempotency, { status: 201, body: price }, [
      buildPutPrice(price),
      buildProductExistsCheck(body.merchantId, params.productId),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed && error.failureAt(productCheckIndex) !== undefined) {
      throw new NotFoundError('The product does not exist.');
    }
    throw error;
  }
});
