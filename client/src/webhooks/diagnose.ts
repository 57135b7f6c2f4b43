// Says why a Merchant Payments webhook delivery does not verify. A tool for development and
// support: it tries the mistakes receivers make, so never let its answer decide whether to trust a
// request; `verify` does that.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { headerValue, holdsNoHeader, type WebhookHeaders } from './headers.js';
import { schemes, toleranceSeconds, type WebhookScheme } from './verify.js';

const secretPrefix = 'whsec_';

/** The top-level keys of every delivery body, in the order we write them. */
const bodyKeys = ['id', 'type', 'createdAt', 'data'];

export type WebhookDiagnosisCause =
  | 'missing_header'
  | 'invalid_timestamp'
  | 'body_modified'
  | 'wrong_secret_form'
  | 'signature_mismatch'
  | 'timestamp_outside_tolerance';

export type WebhookDiagnosis =
  | { ok: true; scheme: WebhookScheme }
  | { ok: false; scheme: WebhookScheme; cause: WebhookDiagnosisCause; message: string };

export interface DiagnoseWebhookOptions {
  /**
   * The headers to check: the service's own `Merchant-Webhook-*` (checked by verify-webhook.ts) or the
   * Standard Webhooks `webhook-*`. Defaults to the scheme whose headers the request carries, the
   * service's own when it carries both or neither.
   */
  scheme?: WebhookScheme;
  /** The current time; defaults to the system clock. */
  now?: Date;
}

type Headers = WebhookHeaders;
type Finding = { cause: WebhookDiagnosisCause; message: string };

/**
 * @param body The body as you verify it: ideally the raw bytes, but a string or a parsed object is
 *   diagnosed too.
 * @param headers The request headers, e.g. Node's `req.headers`; names are matched case-insensitively.
 * @param secret The endpoint's signing secret, `whsec_…`, as you use it.
 */
export function diagnose(
  body: unknown,
  headers: Headers,
  secret: string | Uint8Array,
  { scheme = schemeOf(headers), now = new Date() }: DiagnoseWebhookOptions = {},
): WebhookDiagnosis {
  const fail = (finding: Finding): WebhookDiagnosis => ({ ok: false, scheme, ...finding });
  const { names, prefix, encoding } = schemes[scheme];
  const [idName, timestampName, signatureName] = names;
  const values = names.map((name) => headerValue(headers, name));
  const missing = names.filter((_name, index) => !values[index]);
  const [id = '', timestamp = '', signatures = ''] = values;

  // 1. Headers: without all three there is nothing to check.
  if (missing.length > 0) return fail(missingHeaders(missing, headers));
  if (!/^\d{1,15}$/.test(timestamp))
    return fail({
      cause: 'invalid_timestamp',
      message: `${timestampName} is "${timestamp}", not whole Unix seconds: pass the header exactly as received.`,
    });

  // 2. Signature: the first pairing of a secret form and a body form that verifies names the cause.
  // The raw body with the secret as issued comes first: when it verifies, only the clock is left.
  const given = secretAsIssued(secret);
  const keys = keyForms(scheme, given.whole, signatureName);
  const raw = rawBody(body);
  const attempts: Array<{ key: Buffer; body: Uint8Array | string; finding?: Finding }> = [];
  if (raw !== undefined) {
    const [issued, ...others] = keys;
    attempts.push({ key: issued.key, body: raw, ...secretFinding(given.mistake) });
    for (const other of others) attempts.push({ key: other.key, body: raw, finding: other.finding });
  }
  for (const rewritten of bodyRewrites(body))
    for (const { key } of keys) attempts.push({ key, body: rewritten.body, finding: rewritten.finding });

  const verified = attempts.find((attempt) =>
    signatureMatches(attempt.key, `${id}.${timestamp}.`, attempt.body, signatures, prefix, encoding),
  );
  if (verified === undefined) return fail(unexplainedMismatch(body, id, idName, signatures, prefix));
  if (verified.finding !== undefined) return fail(verified.finding);

  // 3. Timestamp: only a signature that verifies makes the clock worth looking at.
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (Number.isNaN(nowSeconds)) throw new RangeError('now is an invalid Date');
  const age = nowSeconds - Number(timestamp);
  if (age > toleranceSeconds)
    return fail({
      cause: 'timestamp_outside_tolerance',
      message: `${timestampName} is ${age} seconds old, beyond the ${toleranceSeconds}-second tolerance: sync your server's clock (NTP), or this request is a replay of an earlier one.`,
    });
  if (age < -toleranceSeconds)
    return fail({
      cause: 'timestamp_outside_tolerance',
      message: `${timestampName} is ${-age} seconds ahead of your clock, beyond the ${toleranceSeconds}-second tolerance: your server's clock is behind, so sync it (NTP).`,
    });
  return { ok: true, scheme };
}

function schemeOf(headers: Headers): WebhookScheme {
  const carries = (scheme: WebhookScheme) =>
    schemes[scheme].names.some((name) => headerValue(headers, name) !== undefined);
  return !carries('merchant') && carries('standard-webhooks') ? 'standard-webhooks' : 'merchant';
}

function missingHeaders(missing: readonly string[], headers: Headers): Finding {
  const all = [...schemes.merchant.names, ...schemes['standard-webhooks'].names];
  const none = missing.length === 3 && holdsNoHeader(headers, all);
  return {
    cause: 'missing_header',
    message: none
      ? 'The headers you passed are empty: pass the request headers as received, e.g. Node’s req.headers.'
      : `The request has no ${listed(missing)} header${missing.length > 1 ? 's' : ''}: pass every request header as received, and check that no proxy in front of your server drops it.`,
  };
}

/**
 * The secret in the form the API issues it, `whsec_` + base64, rebuilt from the forms it is often
 * passed in by mistake; `mistake` says which one it was.
 */
function secretAsIssued(secret: string | Uint8Array): { whole: string; mistake?: string } {
  if (typeof secret !== 'string')
    return {
      whole: secretPrefix + Buffer.from(secret).toString('base64'),
      mistake: 'The secret you passed is already base64-decoded bytes',
    };
  const trimmed = secret.trim();
  if (!trimmed.startsWith(secretPrefix))
    return { whole: secretPrefix + trimmed, mistake: 'The secret you passed lacks its whsec_ prefix' };
  if (trimmed !== secret)
    return { whole: trimmed, mistake: 'The secret you passed has spaces or a line break around it' };
  return { whole: secret };
}

function secretFinding(mistake: string | undefined): { finding?: Finding } {
  if (mistake === undefined) return {};
  return {
    finding: {
      cause: 'wrong_secret_form',
      message: `${mistake}: pass the signing secret exactly as the API returned it, whsec_ prefix included.`,
    },
  };
}

/**
 * The HMAC keys to try for a scheme: its own first (the service's own: the whole secret as UTF-8;
 * Standard Webhooks': the base64-decoded part after `whsec_`), then the keys of the usual mix-ups.
 */
function keyForms(
  scheme: WebhookScheme,
  whole: string,
  signatureName: string,
): [{ key: Buffer }, ...Array<{ key: Buffer; finding: Finding }>] {
  const rest = whole.slice(secretPrefix.length);
  const wholeText = Buffer.from(whole, 'utf8');
  const decoded = Buffer.from(rest, 'base64');
  const restText = Buffer.from(rest, 'utf8');
  const mixUp = (how: string, should: string): Finding => ({
    cause: 'wrong_secret_form',
    message: `${signatureName} was signed with ${how}, but its key is ${should}: sign and verify it with that key.`,
  });
  if (scheme === 'merchant') {
    const should = 'the whole secret string as UTF-8 bytes, whsec_ prefix included';
    return [
      { key: wholeText },
      {
        key: decoded,
        finding: mixUp('the Standard Webhooks key (the base64-decoded part after whsec_)', should),
      },
      { key: restText, finding: mixUp('the secret without its whsec_ prefix', should) },
    ];
  }
  const should = 'the base64-decoded bytes of the part after whsec_';
  return [
    { key: decoded },
    {
      key: wholeText,
      finding: mixUp('the Merchant-Webhook-Signature key (the whole secret string)', should),
    },
    { key: restText, finding: mixUp('the part after whsec_ as text, not base64-decoded', should) },
  ];
}

/** The body as received, or undefined when what was passed is neither bytes nor text. */
function rawBody(body: unknown): Uint8Array | string | undefined {
  return typeof body === 'string' || body instanceof Uint8Array ? body : undefined;
}

/** The body's JSON value, or undefined when it is not JSON (or not passed as bytes or text). */
function parsedBody(body: unknown): unknown {
  const raw = rawBody(body);
  if (raw === undefined) return body;
  try {
    return JSON.parse(typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Bodies we may have sent that `body` comes from by parsing and re-serialising: its compact JSON
 * (we send `JSON.stringify` output), and that with the top-level keys in our order. Keys inside
 * `data` are left as they are: their order depends on the event type.
 */
function bodyRewrites(body: unknown): Array<{ body: string; finding: Finding }> {
  const value = parsedBody(body);
  if (value === undefined) return [];
  const raw = rawBody(body);
  const message =
    raw === undefined
      ? notBytesMessage(body)
      : 'The signature matches this JSON re-serialised, not the body you passed, so the body was parsed and re-serialised after it arrived: verify the raw request body, before any JSON parsing.';
  const finding: Finding = { cause: 'body_modified', message };
  const compact = JSON.stringify(value);
  const ordered = JSON.stringify(inOurKeyOrder(value));
  const rawText = typeof raw === 'string' || raw === undefined ? raw : Buffer.from(raw).toString('utf8');
  return [compact, ordered]
    .filter(
      (text, index, texts) => typeof text === 'string' && text !== rawText && texts.indexOf(text) === index,
    )
    .map((text) => ({ body: text, finding }));
}

function notBytesMessage(body: unknown): string {
  const passed = typeof body === 'object' && body !== null ? 'a parsed object' : typeof body;
  return `You passed the body as ${passed}, and a signature covers bytes: pass the raw request body (a Buffer or string), before any JSON parsing.`;
}

function inOurKeyOrder(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value);
  const rank = (key: string) => (bodyKeys.includes(key) ? bodyKeys.indexOf(key) : bodyKeys.length);
  return Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b)));
}

/** No form of the secret and body verifies: say what the body shows, or that the secret is wrong. */
function unexplainedMismatch(
  body: unknown,
  id: string,
  idName: string,
  signatures: string,
  prefix: string,
): Finding {
  const modified = (message: string): Finding => ({ cause: 'body_modified', message });
  const raw = rawBody(body);
  if (raw === undefined) return modified(notBytesMessage(body));
  const value = parsedBody(body);
  const text = typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8');
  if (value === undefined)
    return modified(
      'The body you passed is not JSON, so it is not the body we sent: pass the raw request body, whole and undecoded.',
    );
  if (JSON.stringify(value) !== text)
    return modified(
      'The body you passed is not the compact JSON we send (its spacing or escapes differ), so it was changed after it arrived: verify the raw request body, before any JSON parsing.',
    );
  if (JSON.stringify(inOurKeyOrder(value)) !== text)
    return modified(
      `The body's keys are not in the order we send them (${bodyKeys.join(', ')}), so it was changed after it arrived: verify the raw request body, before any JSON parsing.`,
    );
  const bodyId = (value as { id?: unknown }).id;
  if (typeof bodyId === 'string' && bodyId !== id)
    return {
      cause: 'signature_mismatch',
      message: `The body is delivery ${bodyId} but ${idName} is ${id}: pass the headers and body of the same request.`,
    };
  if (!signatures.split(' ').some((value) => value.startsWith(prefix)))
    return {
      cause: 'signature_mismatch',
      message: `The signature header holds no "${prefix}" value: pass the header exactly as received.`,
    };
  return {
    cause: 'signature_mismatch',
    message:
      'The signature matches no form of this secret and body: use the current secret of the endpoint this delivery was sent to (rotating it replaces it at once), with the headers and body of one request.',
  };
}

/** True when one of the space-separated `<prefix><signature>` values is HMAC-SHA256 of the content. */
function signatureMatches(
  key: Buffer,
  head: string,
  body: Uint8Array | string,
  signatures: string,
  prefix: string,
  encoding: 'hex' | 'base64',
): boolean {
  const expected = Buffer.from(createHmac('sha256', key).update(head).update(body).digest(encoding));
  return signatures.split(' ').some((value) => {
    if (!value.startsWith(prefix)) return false;
    const candidate = Buffer.from(value.slice(prefix.length));
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
}

function listed(names: readonly string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}
