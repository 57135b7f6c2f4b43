import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from '../webhook-events.js';
import { headerValue, type WebhookHeaders } from './headers.js';

/** A delivery whose timestamp is further than this from the receiver's clock is refused: 5 minutes. */
export const toleranceSeconds = 5 * 60;

export type WebhookVerificationFailure =
  | 'missing_header'
  | 'invalid_timestamp'
  | 'signature_mismatch'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_body';

export type WebhookScheme = 'merchant' | 'standard-webhooks';

/** A delivery that did not verify: answer it with a 4xx and do not act on its body. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * The two ways a delivery is signed (docs/receiving-webhooks.md#verifying-a-delivery): the service's
 * own `Merchant-Webhook-*` headers, keyed with the whole secret string and hex-encoded, and the
 * Standard Webhooks `webhook-*` headers, keyed with the base64-decoded part after `whsec_` and
 * base64-encoded. Both sign `<id>.<timestamp>.<raw body>` with HMAC-SHA256.
 */
export const schemes = {
  merchant: {
    names: ['Merchant-Webhook-Id', 'Merchant-Webhook-Timestamp', 'Merchant-Webhook-Signature'],
    prefix: 'v1=',
    encoding: 'hex',
    key: (secret: string): Uint8Array => Buffer.from(secret, 'utf8'),
  },
  'standard-webhooks': {
    names: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
    prefix: 'v1,',
    encoding: 'base64',
    key: (secret: string): Uint8Array => Buffer.from(secret.replace(/^whsec_/, ''), 'base64'),
  },
} as const;

export interface VerifyOptions {
  /** The current time; defaults to the system clock. */
  now?: Date;
}

/**
 * Checks a delivery's signature and timestamp, and returns its body as a typed event. Every scheme
 * whose headers the request carries must verify, and at least one must be there.
 * @param rawBody The body exactly as received: the raw bytes, before any JSON parsing.
 * @param headers The request's headers, e.g. Node's `req.headers` or a fetch `Headers`.
 * @param secret The endpoint's signing secret, `whsec_…`, exactly as the API returned it.
 * @throws WebhookVerificationError when it does not verify; `reason` says why.
 */
export function verify(
  rawBody: Uint8Array | string,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): WebhookEvent {
  verifySignature(rawBody, headers, secret, options);
  try {
    const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
    return JSON.parse(text) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The signed body is not JSON');
  }
}

/** `verify` without reading the body: for a receiver that parses it itself. */
export function verifySignature(
  rawBody: Uint8Array | string,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): void {
  const carried = (Object.keys(schemes) as WebhookScheme[]).filter((scheme) =>
    schemes[scheme].names.some((name) => headerValue(headers, name) !== undefined),
  );
  if (carried.length === 0)
    throw new WebhookVerificationError('missing_header', 'The request carries no webhook signature headers');
  for (const scheme of carried) verifyScheme(scheme, rawBody, headers, secret, options.now ?? new Date());
}

function verifyScheme(
  scheme: WebhookScheme,
  rawBody: Uint8Array | string,
  headers: WebhookHeaders,
  secret: string,
  now: Date,
): void {
  const { names, prefix, encoding, key } = schemes[scheme];
  const [id, timestamp, signatures] = names.map((name) => headerValue(headers, name));
  const missing = names.filter((name) => !headerValue(headers, name));
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('missing_header', `The request has no ${missing.join(', ')}`);
  if (!/^\d{1,15}$/.test(timestamp))
    throw new WebhookVerificationError('invalid_timestamp', `${names[1]} is not whole Unix seconds`);
  const expected = Buffer.from(
    createHmac('sha256', key(secret)).update(`${id}.${timestamp}.`).update(rawBody).digest(encoding),
  );
  const matches = signatures.split(' ').some((value) => {
    if (!value.startsWith(prefix)) return false;
    const candidate = Buffer.from(value.slice(prefix.length));
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
  if (!matches)
    throw new WebhookVerificationError(
      'signature_mismatch',
      `${names[2]} does not match the body and secret`,
    );
  // Written so that a broken clock (an invalid Date gives NaN) refuses rather than accepts.
  const age = Math.floor(now.getTime() / 1000) - Number(timestamp);
  if (age < -toleranceSeconds)
    throw new WebhookVerificationError('timestamp_too_new', `${names[1]} is ${-age} s ahead of this clock`);
  if (!(age <= toleranceSeconds))
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `${names[1]} is older than ${toleranceSeconds} s`,
    );
}
