import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getPayment, queryRefunds, toRefund } from '../../store/payments';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { paymentRoutes } from './routes';

/**
 * 404 unless the payment is the caller's; the cursor is bound to the payment. The payment is read
 * beside the page (two reads, one wait): each refund shows the payment's status as it is now, which
 * no refund item keeps (docs/decisions/dynamodb-round-trips-per-route.md).
 */
export const handler = httpHandler(paymentRoutes.listRefunds, async ({ query, params, route }) => {
  const scope = cursorScope(query.merchantId, route.operationId, { paymentId: params.paymentId });
  const startKey = await startKeyOf(query.cursor, scope);
  const [page, payment] = await Promise.all([
    queryRefunds(query.merchantId, params.paymentId, query.limit, startKey),
    getPayment(query.merchantId, params.paymentId),
  ]);
  if (payment === undefined) throw new NotFoundError('The payment does not exist.');
  return { status: 200, body: await pageResponse(page, scope, (item) => toRefund(item, payment)) };
});
