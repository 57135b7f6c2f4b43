import Stripe from 'stripe';
import { logger } from '../../observability/logger';
import { ProcessorUnavailableError, ProcessorUnreachableError } from '../payment-processor';

/**
 * What a failed Stripe call answers, after the SDK's own retry: a timeout, a connection error, a 429
 * or a 5xx is the processor not answering (503, try again); a refused key is no processor here
 * (503). Anything else (a request Stripe found invalid) is a fault of ours and stays a 500. One line
 * is logged with Stripe's error type, status and request id, never the message, which can quote
 * what was sent.
 */
export function stripeFault(error: unknown, operation: string): Error {
  if (!(error instanceof Stripe.errors.StripeError))
    return error instanceof Error ? error : new Error(String(error));
  logger.warn('stripe call failed', {
    operation,
    stripeErrorType: error.type,
    ...(error.statusCode === undefined ? {} : { stripeStatus: error.statusCode }),
    ...(error.requestId === undefined ? {} : { stripeRequestId: error.requestId }),
  });
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeIdempotencyError
  ) {
    return new ProcessorUnreachableError();
  }
  if (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError
  ) {
    return new ProcessorUnavailableError('Stripe refused the platform key.');
  }
  return new Error(`Stripe refused ${operation} (${error.type})`);
}
