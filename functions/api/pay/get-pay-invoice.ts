import { isVisibleToPayer } from '../../domain/invoice';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { findPayLinkTarget } from '../../store/invoices';
import { payInvoiceView } from './pay-views';
import { payPageRoutes } from './routes';

/** The same words for a wrong, rotated or draft slug, so the answer says nothing about which. */
export const invoiceNotFound = 'Invoice not found.';

/**
 * Public: the invoice behind a pay-link slug, for the pay page. One Query of the pay-link index; a
 * slug the index does not know yet is read again through its lookup item.
 */
export const handler = httpHandler(payPageRoutes.getPayInvoice, async ({ body }) => {
  const target = await findPayLinkTarget(body.slug);
  if (target === undefined || !isVisibleToPayer(target.invoice)) throw new NotFoundError(invoiceNotFound);
  return { status: 200, body: payInvoiceView(target.invoice, target.merchantName) };
});
