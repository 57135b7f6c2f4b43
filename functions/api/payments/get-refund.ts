import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getRefund } from '../../store/payments';
import { paymentRoutes } from './routes';

/** A single refund, scoped to its parent payment; any other pairing is a 404. */
export const handler = httpHandler(paymentRoutes.getRefund, async ({ query, params }) => {
  const refund = await getRefund(query.merchantId, params.paymentId, params.refundId);
  if (refund === undefined) throw new NotFoundError('The refund does not exist.');
  return { status: 200, body: refund };
});
