import type Stripe from 'stripe';
import { PaymentMethodType } from '../../domain/invoice';
import { Currency } from '../../domain/money';
import type { StripeEventFields } from '../../domain/processor-event';

/**
 * A PaymentIntent's attempt as its event reports it (docs/processor.md#stripes-events-in):
 * `payment_intent.succeeded` once the money is taken (at once for a card, days later for a bank
 * debit), `payment_intent.payment_failed` for each attempt that failed (a card declined on Checkout, a
 * bank debit that did not go through). The invoice is the one the Checkout Session named in the
 * metadata it gave the PaymentIntent.
 */
export interface StripePaymentAttempt {
  readonly outcome: 'succeeded' | 'failed';
  readonly paymentIntentId: string;
  readonly merchantId: string;
  readonly invoiceId: string;
  /** Minor units: what was received, or what the failed attempt was for. */
  readonly amount: number;
  readonly currency: Currency;
  readonly paymentMethodType: PaymentMethodType;
  /** Stripe's PaymentMethod (`pm_…`), where the event names one. */
  readonly paymentMethodId: string | null;
  readonly declineCode: string | null;
  readonly declineMessage: string | null;
}

export const mappedPaymentEventTypes = ['payment_intent.succeeded', 'payment_intent.payment_failed'] as const;

/**
 * The attempt a PaymentIntent event reports, or undefined for another type. `unknown` for a
 * PaymentIntent the service did not open (no invoice in its metadata, or a currency or method it
 * does not take): recorded, never applied.
 */
export function paymentAttemptOf(event: StripeEventFields): StripePaymentAttempt | 'unknown' | undefined {
  if (!(mappedPaymentEventTypes as readonly string[]).includes(event.type)) return undefined;
  const intent = event.data.object as Stripe.PaymentIntent;
  // Verified as Stripe's, but read as what any JSON could be: a field of another shape is unknown.
  const metadata: Record<string, unknown> =
    typeof intent.metadata === 'object' && intent.metadata !== null ? intent.metadata : {};
  const currency = typeof intent.currency === 'string' ? intent.currency.toUpperCase() : '';
  const methodType = metadata.paymentMethodType;
  const amount = event.type === 'payment_intent.succeeded' ? intent.amount_received : intent.amount;
  if (
    typeof intent.id !== 'string' ||
    typeof metadata.merchantId !== 'string' ||
    typeof metadata.invoiceId !== 'string' ||
    !Number.isSafeInteger(amount) ||
    amount < 1 ||
    !Object.values<string>(Currency).includes(currency) ||
    typeof methodType !== 'string' ||
    !Object.values<string>(PaymentMethodType).includes(methodType ?? '')
  ) {
    return 'unknown';
  }
  const succeeded = event.type === 'payment_intent.succeeded';
  const error = intent.last_payment_error ?? null;
  return {
    outcome: succeeded ? 'succeeded' : 'failed',
    paymentIntentId: intent.id,
    merchantId: metadata.merchantId,
    invoiceId: metadata.invoiceId,
    amount,
    currency: currency as Currency,
    paymentMethodType: methodType as PaymentMethodType,
    paymentMethodId: idOf(intent.payment_method) ?? idOf(error?.payment_method ?? null),
    declineCode: succeeded ? null : (error?.decline_code ?? error?.code ?? 'payment_failed'),
    declineMessage: succeeded ? null : (error?.message ?? 'The payment failed.'),
  };
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : value.id;
}
