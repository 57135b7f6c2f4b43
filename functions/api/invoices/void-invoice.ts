import { voidInvoice } from '../../domain/invoice';
import { isoTimestamp } from '../../domain/time';
import { httpHandler } from '../../http/http-handler';
import { changeInvoice, invoiceReplay } from './invoice-change';
import { invoiceRoutes } from './routes';

/** Draft or issued → void; any other state is a 409 invalid_state, stored for the key like a success. */
export const handler = httpHandler(
  invoiceRoutes.voidInvoice,
  async ({ body, params, idempotency, now }) =>
    changeInvoice(idempotency, body.merchantId, params.id, (invoice) => ({
      next: voidInvoice(invoice, isoTimestamp(now)),
    })),
  invoiceReplay,
);
