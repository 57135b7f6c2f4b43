import type { DomainEvent, Invoice } from '../domain/invoice';
import { invoiceSlugHash } from '../domain/invoice-slug';
import { buildPutEvent } from './events';
import { commitWithIdempotency, type IdempotencyContext, type StoredResponse } from './idempotency';
import { withoutSlug } from './invoice-replay';
import {
  buildAdvanceInvoiceCounter,
  buildPutInvoiceSlug,
  buildPutNewInvoice,
  buildReplaceInvoice,
  counterValue,
  getStoredInvoice,
} from './invoices';
import { isLockedByLiveCall, ProcessorCallBusy } from './processor-calls';
import { type JitterRetry, retryWithJitter } from './retry-with-jitter';
import { type FailedCondition, type TransactItems, TransactionConditionFailed } from './transaction';

/**
 * Creates that lose the race for the next number try again; each loss means another create won.
 * Full jitter growing with each loss: many creates racing for one merchant's counter spread out
 * instead of all retrying at once, which keeps the wasted transactions near n log n, not n².
 */
const numberRace: JitterRetry = { attempts: 200, baseMs: 4, capMs: 250 };

/**
 * Writes a new invoice (with its issuer's name, which the pay page shows), its slug lookup, the
 * advanced counter and the idempotency record (which keeps the answer without its slug) in one
 * transaction. When another create took the number first, the counter's old image tells the next
 * number at once and the transaction is rebuilt with it: numbers stay gapless and unique, and a
 * failed create leaves the counter untouched (DESIGN §4).
 */
export async function commitNewInvoice(
  context: IdempotencyContext,
  counter: number,
  merchantName: string | undefined,
  build: (sequence: number) => Invoice,
): Promise<StoredResponse> {
  let current = counter;
  return retryWithJitter(
    numberRace,
    async () => {
      const invoice = build(current + 1);
      try {
        return await commitWithIdempotency(
          context,
          { status: 201, body: invoice },
          [
            buildAdvanceInvoiceCounter(invoice.merchantId, current),
            buildPutNewInvoice(invoice, merchantName),
            buildPutInvoiceSlug(
              invoiceSlugHash(invoice.invoiceUrlSlug),
              invoice.merchantId,
              invoice.invoiceId,
            ),
          ],
          withoutSlug(invoice),
        );
      } catch (error) {
        // The winner's counter, read from the failed condition, is the next number to try.
        const counterFailure = failureOfFirstItem(error);
        if (counterFailure !== undefined) current = counterValue(counterFailure.existing);
        throw error;
      }
    },
    (error) => failureOfFirstItem(error) !== undefined,
  );
}

export interface InvoiceChange {
  readonly next: Invoice;
  readonly events?: readonly DomainEvent[];
  /** Further items of the same transaction (slug rotation, payment records). */
  readonly items?: TransactItems;
  /** Empties the pay link's decline counts (the merchant's clear); a new slug empties its own anyway. */
  readonly clearsPayLinkDeclines?: boolean;
}

/** A transition that meets a newer revision is computed again from it, a few times at most. */
const revisionRace: JitterRetry = { attempts: 10, baseMs: 4, capMs: 250 };

/**
 * Reads the invoice, computes the change, and commits the new revision (conditional on the one read),
 * its events and the idempotency record in one transaction. `change` may throw a RuleViolation.
 */
export async function commitInvoiceChange(
  context: IdempotencyContext,
  merchantId: string,
  invoiceId: string,
  change: (invoice: Invoice) => InvoiceChange,
): Promise<StoredResponse | undefined> {
  return retryWithJitter(
    revisionRace,
    async () => {
      const stored = await getStoredInvoice(merchantId, invoiceId);
      if (stored === undefined) return undefined;
      const { next, events = [], items = [], clearsPayLinkDeclines } = change(stored.invoice);
      try {
        return await commitWithIdempotency(
          context,
          { status: 200, body: next },
          [
            buildReplaceInvoice(stored, next, context.now, {
              clearsPayLinkDeclines: clearsPayLinkDeclines === true,
            }),
            ...events.map((event) => buildPutEvent(event, context.requestId)),
            ...items,
          ],
          withoutSlug(next),
        );
      } catch (error) {
        if (isLockedByLiveCall(failureOfFirstItem(error)?.existing, context.now)) {
          throw new ProcessorCallBusy(
            'A payment of this invoice is being processed; try again in a few seconds.',
          );
        }
        throw error;
      }
    },
    (error) => failureOfFirstItem(error) !== undefined,
  );
}

/** The failed condition on the transaction's first item (the counter, or the invoice revision). */
function failureOfFirstItem(error: unknown): FailedCondition | undefined {
  return error instanceof TransactionConditionFailed ? error.failureAt(0) : undefined;
}
