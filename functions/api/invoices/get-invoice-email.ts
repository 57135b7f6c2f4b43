import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getEmail } from '../../store/invoice-emails';
import { invoiceEmailView } from './invoice-email-view';
import { invoiceRoutes } from './routes';

/**
 * One email of the caller's invoice, and, where the stage captured it instead of sending it, what it
 * rendered. An email is keyed under its invoice in the merchant's partition, so another merchant's
 * id finds nothing: 404.
 */
export const handler = httpHandler(invoiceRoutes.getInvoiceEmail, async ({ query, params }) => {
  const stored = await getEmail(query.merchantId, params.id, params.emailId);
  if (stored === undefined || stored.email.merchantId !== query.merchantId) {
    throw new NotFoundError('The email does not exist.');
  }
  return { status: 200, body: { ...invoiceEmailView(stored.email), rendered: stored.rendered ?? null } };
});
