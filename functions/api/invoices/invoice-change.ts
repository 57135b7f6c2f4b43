import type { Invoice } from '../../domain/invoice';
import type { ReplayOptions } from '../../http/error-handler';
import { NotFoundError } from '../../http/errors';
import type { IdempotencyContext, StoredResponse } from '../../store/idempotency';
import { commitInvoiceChange, type InvoiceChange, reviveInvoiceReplay } from '../../store/invoices';

/**
 * What every invoice route that answers the invoice passes to its handler: the stored answer keeps
 * no pay-link slug, so a replay reads the invoice's current one back.
 */
export const invoiceReplay: ReplayOptions = { reviveReplay: reviveInvoiceReplay };

/** The shared body of every invoice transition route: read, change, commit; 404 when absent. */
export async function changeInvoice(
  idempotency: IdempotencyContext,
  merchantId: string,
  invoiceId: string,
  change: (invoice: Invoice) => InvoiceChange,
): Promise<StoredResponse> {
  const response = await commitInvoiceChange(idempotency, merchantId, invoiceId, change);
  if (response === undefined) throw new NotFoundError('The invoice does not exist.');
  return response;
}
