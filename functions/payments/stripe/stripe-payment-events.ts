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

/**
 * A dispute Stripe opened on a charge: for a bank debit it is the debit coming back after it had
 * succeeded (Stripe opens one when the bank returns such a debit, and ACH disputes are final), the
 * service's return. A card's dispute has no event of the service's: it is recorded only.
 */
export interface StripeDispute {
  readonly disputeId: string;
  readonly paymentIntentId: string;
}

export function disputeOf(event: StripeEventFields): StripeDispute | 'unknown' | undefined {
  if (event.type !== 'charge.dispute.created') return undefined;
  const dispute = event.data.object as Stripe.Dispute;
  const paymentIntentId = idOf(dispute.payment_intent);
  if (typeof dispute.id !== 'string' || paymentIntentId === null) return 'unknown';
  return { disputeId: dispute.id, paymentIntentId };
}

/** A payout of a connected account, as `payout.created` reports it: what it pays out, net of fees. */
export interface StripePayout {
  readonly payoutId: string;
  readonly netAmount: number;
  readonly currency: Currency;
  /** Stripe lists the balance transactions of an automatic payout only. */
  readonly automatic: boolean;
  /** The bank account or card it is paid to, else the account itself. */
  readonly destinationId: string | null;
}

export function payoutOf(event: StripeEventFields): StripePayout | 'unknown' | undefined {
  if (event.type !== 'payout.created') return undefined;
  const payout = event.data.object as Stripe.Payout;
  const currency = typeof payout.currency === 'string' ? payout.currency.toUpperCase() : '';
  if (
    typeof payout.id !== 'string' ||
    !Number.isSafeInteger(payout.amount) ||
    payout.amount < 0 ||
    !Object.values<string>(Currency).includes(currency)
  ) {
    return 'unknown';
  }
  return {
    payoutId: payout.id,
    netAmount: payout.amount,
    currency: currency as Currency,
    automatic: payout.automatic === true,
    destinationId: idOf(payout.destination as string | { id: string } | null),
  };
}

/** A refund of a PaymentIntent, as `refund.created`, `refund.updated` and `refund.failed` report it. */
export interface StripeRefund {
  readonly stripeRefundId: string;
  readonly paymentIntentId: string;
  readonly amount: number;
  /** Stripe's `succeeded`; `failed` for failed or canceled; `pending` for any other. */
  readonly outcome: 'succeeded' | 'failed' | 'pending';
  /** The service's refund, where the service asked for it (its metadata). */
  readonly refundId: string | null;
}

export const mappedRefundEventTypes = ['refund.created', 'refund.updated', 'refund.failed'] as const;

export function refundOf(event: StripeEventFields): StripeRefund | 'unknown' | undefined {
  if (!(mappedRefundEventTypes as readonly string[]).includes(event.type)) return undefined;
  const refund = event.data.object as Stripe.Refund;
  const paymentIntentId = idOf(refund.payment_intent);
  if (
    typeof refund.id !== 'string' ||
    paymentIntentId === null ||
    !Number.isSafeInteger(refund.amount) ||
    refund.amount < 1
  ) {
    return 'unknown';
  }
  const metadata: Record<string, unknown> =
    typeof refund.metadata === 'object' && refund.metadata !== null ? refund.metadata : {};
  const status = refund.status;
  return {
    stripeRefundId: refund.id,
    paymentIntentId,
    amount: refund.amount,
    outcome:
      status === 'succeeded'
        ? 'succeeded'
        : status === 'failed' || status === 'canceled'
          ? 'failed'
          : 'pending',
    refundId: typeof metadata.refundId === 'string' ? metadata.refundId : null,
  };
}
