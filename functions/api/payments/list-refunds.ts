import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getPayment, queryRefunds, toRefund } from '../../store/payments';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { paymentRoutes } from './routes';

/** 404 unless the payment is the caller's; the cursor is bound to the payment. */
export const handler = httpHandler(paymentRoutes.listRefunds, async ({ query, params, route }) => {
  const scope = cursorScope(query.merchantId, route.operationId, { paymentId: params.paymentId });
  const startKey = await startKeyOf(query.cursor, scope);
  const [payment, page] = await Promise.all([
    getPayment(query.merchantId, params.paymentId),
    queryRefunds(query.merchantId, params.paymentId, query.limit, startKey),
  ]);
  if (payment === undefined) throw new NotFoundError('The payment does not exist.');
  return { status: 200, body: await pageResponse(page, scope, toRefund) };
});
