// Verifies a Merchant Payments webhook delivery. Node.js 18 or later, no dependencies.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A delivery whose timestamp is further than this from your clock is refused: 5 minutes. */
const toleranceSeconds = 5 * 60;

export type VerifyWebhookFailure =
  | 'missing_header'
  | 'invalid_timestamp'
  | 'signature_mismatch'
  | 'timestamp_too_old'
  | 'timestamp_too_new';

export type VerifyWebhookResult = { ok: true } | { ok: false; reason: VerifyWebhookFailure };

export interface VerifyWebhookInput {
  /** The endpoint's signing secret, `whsec_…`, exactly as the API returned it. */
  secret: string;
  /** The request headers, e.g. Node's `req.headers`; names are matched case-insensitively. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body exactly as received: the raw bytes, before any JSON parsing. */
  rawBody: Uint8Array | string;
  /** The current time; defaults to the system clock. */
  now?: Date;
}

export function verifyWebhook({
  secret,
  headers,
  rawBody,
  now = new Date(),
}: VerifyWebhookInput): VerifyWebhookResult {
  const id = header(headers, 'merchant-webhook-id');
  const timestamp = header(headers, 'merchant-webhook-timestamp');
  const signatures = header(headers, 'merchant-webhook-signature');
  if (!id || !timestamp || !signatures) return { ok: false, reason: 'missing_header' };
  if (!/^\d{1,15}$/.test(timestamp)) return { ok: false, reason: 'invalid_timestamp' };

  // Steps 1-3: HMAC-SHA256 of "<id>.<timestamp>.<raw body>", lowercase hex. The key is the whole
  // secret string as UTF-8, "whsec_" prefix included.
  const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  const expected = Buffer.from(hmac.update(`${id}.${timestamp}.`).update(rawBody).digest('hex'));

  // Step 4: constant-time comparison with the part after "v1="; the header may hold several
  // space-separated values.
  const matches = signatures.split(' ').some((value) => {
    if (!value.startsWith('v1=')) return false;
    const candidate = Buffer.from(value.slice('v1='.length));
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
  if (!matches) return { ok: false, reason: 'signature_mismatch' };

  // Step 5: refuse a timestamp more than 5 minutes old (a replay), or more than 5 minutes ahead.
  // Written so that a broken clock (an invalid Date gives NaN) refuses rather than accepts.
  const age = Math.floor(now.getTime() / 1000) - Number(timestamp);
  if (age < -toleranceSeconds) return { ok: false, reason: 'timestamp_too_new' };
  if (!(age <= toleranceSeconds)) return { ok: false, reason: 'timestamp_too_old' };
  return { ok: true };
}

function header(headers: VerifyWebhookInput['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
}
