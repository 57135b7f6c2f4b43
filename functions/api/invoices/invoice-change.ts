import type { Invoice } from '../../domain/invoice';
import { NotFoundError } from '../../http/errors';
import type { IdempotencyContext, StoredResponse } from '../../store/idempotency';
import { commitInvoiceChange, type InvoiceChange } from '../../store/invoice-commits';

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
