import { randomBytes } from 'node:crypto';
import { withNewSlug } from '../../domain/invoice';
import { invoiceSlugHash, newInvoiceUrlSlug } from '../../domain/invoice-slug';
import { isoTimestamp } from '../../domain/time';
import { httpHandler } from '../../http/http-handler';
import { buildDeleteInvoiceSlug, buildPutInvoiceSlug } from '../../store/invoices';
import { changeInvoice, invoiceReplay } from './invoice-change';
import { invoiceRoutes } from './routes';

/**
 * The old slug's lookup item is deleted and the invoice's pay-link key replaced in the same
 * transaction, so the old slug can't pay from that moment on; the pay-link index may still show the
 * invoice under it for the moment the index lags.
 */
export const handler = httpHandler(
  invoiceRoutes.rotateInvoiceUrlSlug,
  async ({ body, params, idempotency, now }) =>
    changeInvoice(idempotency, body.merchantId, params.id, (invoice) => {
      const next = withNewSlug(
        invoice,
        newInvoiceUrlSlug((size) => randomBytes(size)),
        isoTimestamp(now),
      );
      return {
        next,
        items: [
          buildDeleteInvoiceSlug(invoiceSlugHash(invoice.invoiceUrlSlug)),
          buildPutInvoiceSlug(invoiceSlugHash(next.invoiceUrlSlug), next.merchantId, next.invoiceId),
        ],
      };
    }),
  invoiceReplay,
);
