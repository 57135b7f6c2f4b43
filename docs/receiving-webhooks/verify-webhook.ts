// Verifies a Merchant Payments webhook delivery with the merchant-payments package
// (`npm install merchant-payments`): the same check as webhooks.verify, as a result, not a throw.
import {
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationFailure,
  webhooks,
} from 'merchant-payments';

export type VerifyWebhookResult = { ok: true } | { ok: false; reason: WebhookVerificationFailure };

export interface VerifyWebhookInput {
  /** The endpoint's signing secret, `whsec_…`, exactly as the API returned it. */
  secret: string;
  /** The request headers, e.g. Node's `req.headers`; names are matched case-insensitively. */
  headers: WebhookHeaders;
  /** The body exactly as received: the raw bytes, before any JSON parsing. */
  rawBody: Uint8Array | string;
  /** The current time; defaults to the system clock. */
  now?: Date;
}

export function verifyWebhook({ secret, headers, rawBody, now }: VerifyWebhookInput): VerifyWebhookResult {
  try {
    webhooks.verifySignature(rawBody, headers, secret, now === undefined ? {} : { now });
    return { ok: true };
  } catch (error) {
    if (error instanceof WebhookVerificationError) return { ok: false, reason: error.reason };
    throw error;
  }
}
