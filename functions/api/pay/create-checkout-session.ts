import { functionEnvironment } from '../../config';
import { RuleViolation } from '../../domain/errors';
import { isVisibleToPayer } from '../../domain/invoice';
import { ProcessorAccountState } from '../../domain/processor-account';
import { isoTimestamp } from '../../domain/time';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { measuredProcessorCall } from '../../payments/processor-metrics';
import { createStripeCheckoutSession } from '../../payments/stripe/stripe-checkout';
import { commitWithIdempotency, replayStoredOutcome } from '../../store/idempotency';
import { findPayLinkTarget } from '../../store/invoices';
import { getProcessorAccount } from '../../store/processor-accounts';
import { invoiceNotFound } from './get-pay-invoice';
import { checkPayable } from './payable';
import { payPageRoutes } from './routes';

/**
 * Public (production): opens Stripe's hosted Checkout on the merchant's connected account for the
 * amount remaining, in one payment method the invoice takes, and answers its URL; the pay page sends
 * the payer there and Stripe sends them back. Nothing is paid here: Stripe's events record the
 * payment (docs/processor.md#paying). The same Idempotency-Key answers the same session.
 */
export const handler = httpHandler(
  payPageRoutes.createCheckoutSession,
  async ({ body, idempotency, now }) => {
    // An earlier answer to this key wins, whatever has changed since.
    await replayStoredOutcome(idempotency);
    const target = await findPayLinkTarget(body.slug);
    if (target === undefined || !isVisibleToPayer(target.invoice)) throw new NotFoundError(invoiceNotFound);
    const { invoice } = target;
    checkPayable(invoice, body.amount, body.paymentMethodType, isoTimestamp(now), 'paymentMethodType');
    const account = await getProcessorAccount(invoice.merchantId);
    if (account?.state !== ProcessorAccountState.active) {
      throw new RuleViolation(
        'invalid_state',
        'This merchant cannot take online payments yet; contact them to pay this invoice.',
      );
    }
    const pageUrl = `${publicBaseUrl()}/pay`;
    const session = await measuredProcessorCall(() =>
      createStripeCheckoutSession({
        processorAccountId: account.processorAccountId,
        merchantId: invoice.merchantId,
        invoiceId: invoice.invoiceId,
        invoiceNumber: invoice.invoiceNumber,
        invoiceRevision: invoice.currentRevisionNumber,
        amount: body.amount,
        currency: invoice.currency,
        paymentMethodType: body.paymentMethodType,
        // The slug stays in the fragment, which the browser keeps to itself on the way back.
        successUrl: `${pageUrl}?checkout=complete#${body.slug}`,
        cancelUrl: `${pageUrl}#${body.slug}`,
        idempotencyKey: `merchant-payments-${idempotency.scopeHash}-checkout`,
        now,
      }),
    );
    const answer = { checkoutUrl: session.url, expiresAt: isoTimestamp(session.expiresAt) };
    return commitWithIdempotency(idempotency, { status: 201, body: answer }, []);
  },
);

function publicBaseUrl(): string {
  const base = functionEnvironment().PUBLIC_BASE_URL;
  if (base === undefined) throw new Error('PUBLIC_BASE_URL is not set: the Checkout return pages need it.');
  return base;
}
