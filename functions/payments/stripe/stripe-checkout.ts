import type Stripe from 'stripe';
import { PaymentMethodType as Method, type PaymentMethodType } from '../../domain/invoice';
import type { Currency } from '../../domain/money';
import { stripeFault } from './stripe-faults';
import { stripePlatform } from './stripe-platform';

/** A Checkout Session lives this long: Stripe's shortest, so an abandoned one stops taking money soon. */
export const checkoutSessionLifetimeSeconds = 30 * 60;

/** What the payer is sent to pay, and where Stripe sends them back (docs/processor.md#paying). */
export interface CheckoutRequest {
  readonly processorAccountId: string;
  readonly merchantId: string;
  readonly invoiceId: string;
  readonly invoiceNumber: string;
  /** The revision the payer saw: kept in the metadata, so the payment names what it paid. */
  readonly invoiceRevision: number;
  /** The amount remaining, in minor units. */
  readonly amount: number;
  readonly currency: Currency;
  readonly paymentMethodType: PaymentMethodType;
  readonly successUrl: string;
  readonly cancelUrl: string;
  readonly idempotencyKey: string;
  readonly now: Date;
}

export interface CheckoutSession {
  readonly url: string;
  readonly expiresAt: Date;
}

/**
 * Stripe's payment method of a method kind in a currency: a card is a card; a bank account is the
 * bank debit of the invoice's currency, ACH Direct Debit for USD and pre-authorized debit for CAD.
 */
export function stripeMethodOf(
  type: PaymentMethodType,
  currency: Currency,
): 'card' | 'us_bank_account' | 'acss_debit' {
  if (type === Method.card) return 'card';
  return currency === 'USD' ? 'us_bank_account' : 'acss_debit';
}

/** The Checkout Session's parameters: one line for the amount remaining, one payment method. */
export function checkoutSessionParams(request: CheckoutRequest): Stripe.Checkout.SessionCreateParams {
  const method = stripeMethodOf(request.paymentMethodType, request.currency);
  const metadata = {
    merchantId: request.merchantId,
    invoiceId: request.invoiceId,
    invoiceRevision: String(request.invoiceRevision),
    paymentMethodType: request.paymentMethodType,
  };
  return {
    mode: 'payment',
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: request.currency.toLowerCase(),
          unit_amount: request.amount,
          product_data: { name: `Invoice ${request.invoiceNumber}` },
        },
      },
    ],
    // A filter of what Stripe would offer: exactly this one.
    allowed_payment_method_types: [method],
    ...(method === 'acss_debit'
      ? {
          payment_method_options: {
            acss_debit: { mandate_options: { payment_schedule: 'sporadic', transaction_type: 'personal' } },
          },
        }
      : {}),
    client_reference_id: request.invoiceId,
    metadata,
    // The PaymentIntent's events are the ones mapped (docs/processor.md#stripes-events-in): they carry these.
    payment_intent_data: { metadata },
    success_url: request.successUrl,
    cancel_url: request.cancelUrl,
    expires_at: Math.floor(request.now.getTime() / 1000) + checkoutSessionLifetimeSeconds,
  };
}

/**
 * Opens a Checkout Session on the merchant's connected account (a direct charge: `Stripe-Account`),
 * with an idempotency key of the request's, so a retried request gets the same session.
 */
export async function createStripeCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession> {
  const { stripe } = await stripePlatform();
  const session = await stripe.checkout.sessions
    .create(checkoutSessionParams(request), {
      stripeAccount: request.processorAccountId,
      idempotencyKey: request.idempotencyKey,
    })
    .catch((error: unknown) => {
      throw stripeFault(error, 'checkout.sessions.create');
    });
  if (session.url === null) throw new Error('Stripe opened a Checkout Session without a URL.');
  return { url: session.url, expiresAt: new Date(session.expires_at * 1000) };
}
