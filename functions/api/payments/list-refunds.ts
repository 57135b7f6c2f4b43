import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getPayment, queryRefunds, toRefund } from '../../store/payments';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { paymentRoutes } from './routes';

/**
 * 404 unless the payment is the caller's; the cursor is bound to the payment. The payment is read
 * only for an empty first page: payments are never deleted and a refund exists only under its
 * payment in the caller's own partition, so a refund found (or a signed cursor) proves the payment.
 */
export const handler = httpHandler(paymentRoutes.listRefunds, async ({ query, params, route }) => {
  const scope = cursorScope(query.merchantId, route.operationId, { paymentId: params.paymentId });
  const startKey = await startKeyOf(query.cursor, scope);
  const page = await queryRefunds(query.merchantId, params.paymentId, query.limit, startKey);
  if (page.items.length === 0 && startKey === undefined) {
    const payment = await getPayment(query.merchantId, params.paymentId);
    if (payment === undefined) throw new NotFoundError('The payment does not exist.');
  }
  return { status: 200, body: await pageResponse(page, scope, toRefund) };
});
