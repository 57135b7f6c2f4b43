import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getPayment } from '../../store/payments';
import { paymentView } from './payment-view';
import { paymentRoutes } from './routes';

export const handler = httpHandler(paymentRoutes.getPayment, async ({ query, params }) => {
  const payment = await getPayment(query.merchantId, params.paymentId);
  if (payment === undefined) throw new NotFoundError('The payment does not exist.');
  return { status: 200, body: paymentView(payment) };
});
