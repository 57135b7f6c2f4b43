import { newCustomer } from '../../domain/customer';
import { newId } from '../../domain/ids';
import { isoTimestamp } from '../../domain/time';
import { httpHandler } from '../../http/http-handler';
import { buildPutCustomer } from '../../store/customers';
import { commitWithIdempotency } from '../../store/idempotency';
import { customerRoutes } from './routes';

/** One write round trip: the customer and its idempotency record in one transaction, no read first. */
export const handler = httpHandler(customerRoutes.createCustomer, async ({ body, idempotency, now }) => {
  const customer = newCustomer({
    customerId: newId('cust'),
    merchantId: body.merchantId,
    name: body.name,
    email: body.email,
    createdAt: isoTimestamp(now),
  });
  return commitWithIdempotency(idempotency, { status: 201, body: customer }, [buildPutCustomer(customer)]);
});
