import { randomBytes } from 'node:crypto';
import { InvalidFields } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { newInvoice, priceLineItems } from '../../domain/invoice';
import { newInvoiceUrlSlug } from '../../domain/invoice-slug';
import { inShard, shardForNewItem } from '../../domain/merchant-shards';
import { isoTimestamp } from '../../domain/time';
import { httpHandler } from '../../http/http-handler';
import { ValidationMessage } from '../../http/validation-messages';
import { commitNewInvoice, loadInvoiceReferences } from '../../store/invoices';
import { invoiceReplay } from './invoice-change';
import { invoiceRoutes } from './routes';

/**
 * One batched read (customer, merchant, counter, products, prices) and one transaction on the happy
 * path. The merchant's name is kept on the invoice, so its pay page reads no merchant.
 */
export const handler = httpHandler(
  invoiceRoutes.createInvoice,
  async ({ body, idempotency, now, merchantShards }) => {
    const references = await loadInvoiceReferences(body.merchantId, body.customerId, body.lineItems);
    const problems = references.customerExists
      ? []
      : [{ path: 'customerId', message: ValidationMessage.existing('customer') }];
    let lineItems: ReturnType<typeof priceLineItems> = [];
    try {
      lineItems = priceLineItems(body.lineItems, body.currency, references.catalog);
    } catch (error) {
      if (!(error instanceof InvalidFields)) throw error;
      problems.push(...error.problems);
    }
    if (problems.length > 0) throw new InvalidFields(problems);
    const invoiceId = inShard(newId('inv'), shardForNewItem(merchantShards, now));
    const invoiceUrlSlug = newInvoiceUrlSlug((size) => randomBytes(size));
    return commitNewInvoice(idempotency, references.invoiceCounter, references.merchantName, (sequence) =>
      newInvoice({
        ...body,
        invoiceId,
        sequence,
        invoiceUrlSlug,
        idempotencyKey: idempotency.key,
        lineItems,
        now: isoTimestamp(now),
      }),
    );
  },
  invoiceReplay,
);
