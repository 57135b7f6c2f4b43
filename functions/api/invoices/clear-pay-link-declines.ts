import { httpHandler } from '../../http/http-handler';
import { changeInvoice, invoiceReplay } from './invoice-change';
import { invoiceRoutes } from './routes';

/**
 * The merchant's way out of a pay link locked by declines (docs/decisions/declines-on-the-pay-link.md):
 * empties the current link's count and the invoice's ceiling, in any state. The invoice
 * itself does not change (no new revision, no event), and it is the answer. Like every merchant
 * change it waits for a payment at the processor (409 `payment_in_progress`).
 */
export const handler = httpHandler(
  invoiceRoutes.clearPayLinkDeclines,
  async ({ body, params, idempotency }) =>
    changeInvoice(idempotency, body.merchantId, params.id, (invoice) => ({
      next: invoice,
      clearsPayLinkDeclines: true,
    })),
  invoiceReplay,
);
