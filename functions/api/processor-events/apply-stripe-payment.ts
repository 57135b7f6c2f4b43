import { RuleViolation } from '../../domain/errors';
import { typeIdMilliseconds } from '../../domain/id-time-bounds';
import { newId } from '../../domain/ids';
import {
  applyPayment,
  type DomainEvent,
  type Invoice,
  InvoiceStatus,
  invoicePaidEvent,
} from '../../domain/invoice';
import { inShard, merchantShardOfId } from '../../domain/merchant-shards';
import { newPayment, type Payment, paymentCreatedEvent, paymentDeclinedEvent } from '../../domain/payment';
import { ProcessorEventOutcome, type StripeEventFields } from '../../domain/processor-event';
import { isoTimestamp } from '../../domain/time';
import { logger } from '../../observability/logger';
import type { StripePaymentAttempt } from '../../payments/stripe/stripe-payment-events';
import { buildPutEvent } from '../../store/events';
import { buildReplaceInvoice, getStoredInvoice, type StoredInvoice } from '../../store/invoices';
import { buildPutPayment } from '../../store/payments';
import { getProcessorAccount } from '../../store/processor-accounts';
import { buildPutProcessorEvent, buildPutProcessorObject } from '../../store/processor-events';
import { sendTransaction, TransactionConditionFailed } from '../../store/transaction';

/** An invoice that changed between its read and the write is read again, a few times at most. */
const maxAttempts = 5;

/** Where the invoice changed under the write (index 3 of a success's items, when it pays one). */
type Applied = ProcessorEventOutcome | 'invoice_changed';

/**
 * Applies a PaymentIntent's attempt, in one transaction with the event's record: a success is a
 * `completed` payment with payments.PaymentCreated, applied to its invoice (invoices.InvoicePaid
 * once fully paid); a failure is a `declined` payment with payments.PaymentDeclined, the invoice as
 * it was. The account must be the one the merchant linked. A success the invoice can no longer take
 * (paid or voided meanwhile, or more than remains) is still recorded and announced, since the money
 * was taken, and logged for the merchant to refund.
 */
export async function applyStripePayment(
  event: StripeEventFields,
  attempt: StripePaymentAttempt,
  context: { readonly now: Date; readonly requestId: string },
): Promise<ProcessorEventOutcome> {
  const account = await getProcessorAccount(attempt.merchantId);
  if (account === undefined || account.processorAccountId !== event.account) {
    return ProcessorEventOutcome.unknownAccount;
  }
  for (let attemptNumber = 1; attemptNumber <= maxAttempts; attemptNumber += 1) {
    const stored = await getStoredInvoice(attempt.merchantId, attempt.invoiceId);
    if (stored === undefined) return ProcessorEventOutcome.unknownObject;
    const outcome = await writeAttempt(event, attempt, stored, context);
    if (outcome !== 'invoice_changed') return outcome;
  }
  throw new Error('The invoice kept changing while a Stripe payment was applied to it.');
}

async function writeAttempt(
  event: StripeEventFields,
  attempt: StripePaymentAttempt,
  stored: StoredInvoice,
  context: { readonly now: Date; readonly requestId: string },
): Promise<Applied> {
  const payment = paymentOf(attempt, stored.invoice);
  const record = buildPutProcessorEvent(
    event,
    ProcessorEventOutcome.applied,
    context.now,
    attempt.merchantId,
  );
  const put = (domainEvent: DomainEvent) => buildPutEvent(domainEvent, context.requestId);
  if (attempt.outcome === 'failed') {
    return send([record, buildPutPayment(payment), put(paymentDeclinedEvent(payment, newId('evt')))]);
  }
  const items = [
    record,
    buildPutProcessorObject('stripe', attempt.paymentIntentId, {
      merchantId: payment.merchantId,
      localId: payment.paymentId,
    }),
    buildPutPayment(payment),
    put(paymentCreatedEvent(payment, newId('evt'))),
  ];
  const paid = invoiceAfter(stored.invoice, payment);
  if (paid === undefined) {
    logger.warn('stripe payment not applied to its invoice', {
      stripeEventId: event.id,
      paymentId: payment.paymentId,
      invoiceId: attempt.invoiceId,
      invoiceStatus: stored.invoice.status,
    });
    return send(items);
  }
  const paidWith =
    paid.status === InvoiceStatus.paid
      ? { methodKind: payment.paymentMethodType, reference: payment.paymentId }
      : undefined;
  return send([
    ...items,
    buildReplaceInvoice(stored, paid, context.now, { paidWith }),
    ...(paid.status === InvoiceStatus.paid ? [put(invoicePaidEvent(paid, newId('evt')))] : []),
  ]);
}

/**
 * The payment an attempt makes, in the invoice's shard, at the time it is recorded here: its events
 * then join the event log in the order they are written, so a reader of the log by time misses none,
 * however late Stripe's event came (a repeat is stopped by the event's record and the
 * PaymentIntent's lookup, not by the id).
 */
function paymentOf(attempt: StripePaymentAttempt, invoice: Invoice): Payment {
  const paymentId = inShard(newId('pmt'), merchantShardOfId(invoice.invoiceId));
  const processorReferenceId = attempt.paymentIntentId;
  return newPayment({
    paymentId,
    merchantId: invoice.merchantId,
    customerId: invoice.customerId,
    invoiceId: invoice.invoiceId,
    priceId: null,
    amount: attempt.amount,
    currency: attempt.currency,
    paymentMethodType: attempt.paymentMethodType,
    processor: 'stripe',
    charge:
      attempt.outcome === 'succeeded'
        ? {
            outcome: 'succeeded',
            processorReferenceId,
            paymentInstrumentId: attempt.paymentMethodId ?? processorReferenceId,
          }
        : {
            outcome: 'declined',
            processorReferenceId,
            declineCode: attempt.declineCode ?? 'payment_failed',
            declineMessage: attempt.declineMessage ?? 'The payment failed.',
          },
    now: isoTimestamp(new Date(typeIdMilliseconds(paymentId))),
  });
}

/** The invoice once the payment is applied, or undefined where it can no longer take it. */
function invoiceAfter(invoice: Invoice, payment: Payment) {
  if (payment.currency !== invoice.currency) return undefined;
  try {
    return applyPayment(invoice, payment.amount, payment.createdAt);
  } catch (error) {
    if (error instanceof RuleViolation) return undefined;
    throw error;
  }
}

/**
 * One transaction. The event's record failing is a repeat; the lookup or the payment failing is
 * the same success under another event id (a repeat too); the invoice failing means it changed.
 */
async function send(items: readonly { readonly [kind: string]: unknown }[]): Promise<Applied> {
  try {
    await sendTransaction(items as Parameters<typeof sendTransaction>[0]);
    return ProcessorEventOutcome.applied;
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failureAt(0) !== undefined) return ProcessorEventOutcome.duplicate;
    if (error.failureAt(1) !== undefined || error.failureAt(2) !== undefined) {
      return ProcessorEventOutcome.duplicate;
    }
    return 'invoice_changed';
  }
}
