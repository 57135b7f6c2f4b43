import { httpHandler } from '../../http/http-handler';
import { queryPayments, toPayment } from '../../store/payments';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { paymentView } from './payment-view';
import { paymentRoutes } from './routes';

export const handler = httpHandler(paymentRoutes.listPayments, async ({ query, route, merchantShards }) => {
  const { merchantId, limit, cursor, ...filters } = query;
  const scope = cursorScope(merchantId, route.operationId, filters);
  const page = await queryPayments(
    merchantId,
    merchantShards,
    filters,
    limit,
    await startKeyOf(cursor, scope),
  );
  return { status: 200, body: await pageResponse(page, scope, (item) => paymentView(toPayment(item))) };
});
