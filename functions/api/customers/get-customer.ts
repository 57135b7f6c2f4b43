import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getCustomer } from '../../store/customers';
import { customerRoutes } from './routes';

/** Another merchant's customer is looked up in the caller's own partition, so it is simply absent. */
export const handler = httpHandler(customerRoutes.getCustomer, async ({ query, params }) => {
  const customer = await getCustomer(query.merchantId, params.customerId);
  if (customer === undefined) throw new NotFoundError('The customer does not exist.');
  return { status: 200, body: customer };
});
