import type Stripe from 'stripe';
import { AnswerableError, type ErrorAnswer } from '../../errors/answerable-error';
import type { StripePlatform } from './stripe-platform';

/**
 * How old a signature's timestamp may be: the SDK's own default, 5 minutes, against replays of a
 * captured request.
 */
export const stripeSignatureToleranceSeconds = 300;

/** The header Stripe signs every webhook request with. */
export const stripeSignatureHeader = 'Stripe-Signature';

/**
 * The request is not one Stripe signed with the platform's Connect webhook secret within the
 * tolerance: 400, nothing read or written. The SDK's reason is not repeated; it says no more than this.
 */
export class StripeSignatureRefused extends AnswerableError {
  override name = 'StripeSignatureRefused';

  answer(): ErrorAnswer {
    return {
      code: 'validation_error',
      message: 'The request is not signed by Stripe for this endpoint.',
      details: [
        {
          path: stripeSignatureHeader,
          message: `must be Stripe's signature of this exact body, made within the last ${stripeSignatureToleranceSeconds / 60} minutes.`,
        },
      ],
    };
  }
}

/**
 * The event Stripe sent, verified by `stripe.webhooks.constructEvent` on the raw body bytes as
 * received (never a re-serialization of the parsed JSON, which would not be what Stripe signed).
 */
export function verifiedStripeEvent(
  platform: StripePlatform,
  body: Buffer | undefined,
  signature: string | undefined,
  now: Date,
): Stripe.Event {
  if (body === undefined || signature === undefined)
    throw new StripeSignatureRefused('No body or signature.');
  try {
    return platform.stripe.webhooks.constructEvent(
      body,
      signature,
      platform.webhookSigningSecret,
      stripeSignatureToleranceSeconds,
      undefined,
      // The SDK takes the time of receipt in milliseconds, as Date.now() gives it.
      now.getTime(),
    );
  } catch (error) {
    throw new StripeSignatureRefused('The signature does not verify.', { cause: error });
  }
}
