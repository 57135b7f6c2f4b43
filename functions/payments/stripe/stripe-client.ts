import Stripe from 'stripe';
import type { FunctionEnvironment } from '../../config';

/**
 * The SDK's own retry of a failed call (a connection error, a timeout, a 409 or a 5xx, with its
 * idempotency key): once. With `STRIPE_TIMEOUT_MS` per try, two calls in a row stay within a route's
 * timeout (docs/processor.md). Retries are never written by hand around it.
 */
export const stripeMaxNetworkRetries = 1;

/**
 * The API version every request names. Pinned to the SDK's own, whose types describe it, so an SDK
 * upgrade that moves it fails the type check until it is moved here on purpose.
 */
export const stripeApiVersion = '2026-10-28.endive' as const;

type ClientSettings = Pick<FunctionEnvironment, 'STRIPE_API_BASE_URL' | 'STRIPE_TIMEOUT_MS'>;

/**
 * A Stripe client for the platform's secret key. `STRIPE_API_BASE_URL` (local runtime and tests only)
 * points it at another server through the SDK's documented host, port and protocol options.
 */
export function buildStripeClient(secretKey: string, settings: ClientSettings): Stripe {
  return new Stripe(secretKey, {
    apiVersion: stripeApiVersion,
    maxNetworkRetries: stripeMaxNetworkRetries,
    timeout: settings.STRIPE_TIMEOUT_MS,
    telemetry: false,
    typescript: true,
    ...apiServer(settings.STRIPE_API_BASE_URL),
  });
}

function apiServer(baseUrl: string | undefined) {
  if (baseUrl === undefined) return {};
  const url = new URL(baseUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const port = url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port, protocol } as const;
}
