import { stripeFault } from './stripe-faults';
import { stripePlatform } from './stripe-platform';

export interface StripeRefundRequest {
  readonly processorAccountId: string;
  readonly paymentIntentId: string;
  readonly amount: number;
  readonly merchantId: string;
  readonly paymentId: string;
  readonly refundId: string;
  readonly idempotencyKey: string;
}

/**
 * Asks Stripe to refund part of a PaymentIntent on the merchant's connected account; the refund's
 * outcome comes later in its events. The metadata names the service's refund, so an event that
 * arrives before the refund is recorded here is known as this one.
 */
export async function createStripeRefund(
  request: StripeRefundRequest,
): Promise<{ processorReferenceId: string }> {
  const { stripe } = await stripePlatform();
  const refund = await stripe.refunds
    .create(
      {
        payment_intent: request.paymentIntentId,
        amount: request.amount,
        metadata: {
          merchantId: request.merchantId,
          paymentId: request.paymentId,
          refundId: request.refundId,
        },
      },
      { stripeAccount: request.processorAccountId, idempotencyKey: request.idempotencyKey },
    )
    .catch((error: unknown) => {
      throw stripeFault(error, 'refunds.create');
    });
  return { processorReferenceId: refund.id };
}
