/** What a log line must never contain (docs/decisions/logs.md). */
export const LogSecretKind = {
  apiKey: 'API key',
  portalToken: 'portal link or session token',
  signingSecret: 'webhook signing secret',
  invoiceSlug: 'invoice pay-link slug',
  cardNumber: 'card number',
  emailBody: 'email body',
  stripeSecretKey: 'Stripe secret key',
  stripeOnboardingLink: 'Stripe onboarding link',
} as const;
export type LogSecretKind = (typeof LogSecretKind)[keyof typeof LogSecretKind];

export interface LogSecret {
  readonly kind: LogSecretKind;
  /** Where the secret starts in the line. */
  readonly index: number;
  /** Enough to find the secret again, never the secret itself. */
  readonly masked: string;
}

/**
 * A key's prefix (`merchant_<env><key id>`) may be logged, so only an underscore followed by secret
 * characters makes a key; a truncated or malformed secret is still one a client sent.
 */
const apiKeyPattern = /(merchant_(?:sbx|prd)[a-z0-9]{10})_[A-Za-z0-9_-]+/g;
/** Portal tokens embed their session id, which may be logged; the part after it is the secret. */
const portalTokenPattern = /(portal(?:link)?_(?:sbx|prd)[0-9a-z]{26})_[A-Za-z0-9_-]+/g;
const signingSecretPattern = /whsec_[A-Za-z0-9+/=]+/g;
/** The platform's Stripe key, secret (`sk_`) or restricted (`rk_`), of test or live mode. */
const stripeSecretKeyPattern = /(?<![A-Za-z0-9])(sk|rk)_(?:test|live)_[A-Za-z0-9]+/g;
/** An Account Link: whoever holds it onboards (gives bank details to) the merchant's account. */
const stripeOnboardingLinkPattern = /https:\/\/connect\.stripe\.com\/setup\/[^\s"\\]+/g;
/**
 * A slug is 32 random bytes in base64url: a token of exactly 43 characters. The longest ids the
 * service logs are shorter (TypeIDs ≤ 33, UUIDs 36, `test-<uuid>` table names 41) and hashes longer
 * (SHA-256 hex 64), so the length alone tells them apart.
 */
const slugPattern = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
/**
 * Card numbers: 13 to 19 digits starting 2 to 6 (every card scheme), passing Luhn. Epoch
 * milliseconds are 13-digit runs too, but start with 1 until 2033.
 */
const cardNumberPattern = /(?<![A-Za-z0-9])[2-6][0-9]{12,18}(?![A-Za-z0-9])/g;

/**
 * An email's body, either part: the footer every invoice email and every failing-endpoint notice
 * ends its text with, and the layout table every HTML part is built of (its quotes escaped in a
 * JSON line). `test/logs/log-secrets.test.ts` renders each email and checks it is found.
 */
const emailBodyPattern =
  /You are receiving this email because|You receive it because this address is the notification address|<table role=\\?"presentation/g;

/** Every secret in `line`, in order of position, masked. */
export function findLogSecrets(line: string): LogSecret[] {
  const prefixed = [
    // The secret may hold underscores too: only the prefix group is shown.
    ...matches(line, apiKeyPattern, LogSecretKind.apiKey, ([, keyPrefix]) => `${keyPrefix}_…`),
    ...matches(line, portalTokenPattern, LogSecretKind.portalToken, ([, sessionPart]) => `${sessionPart}_…`),
    ...matches(line, signingSecretPattern, LogSecretKind.signingSecret, () => 'whsec_…'),
    ...matches(line, stripeSecretKeyPattern, LogSecretKind.stripeSecretKey, ([, kind]) => `${kind}_…`),
    ...matches(
      line,
      stripeOnboardingLinkPattern,
      LogSecretKind.stripeOnboardingLink,
      () => 'https://connect.stripe.com/setup/…',
    ),
    ...matches(line, emailBodyPattern, LogSecretKind.emailBody, ([marker]) => `${marker.slice(0, 12)}…`),
  ];
  const unprefixed = [
    ...matches(line, slugPattern, LogSecretKind.invoiceSlug, ([slug]) => `${slug.slice(0, 4)}…(43 chars)`),
    ...matches(line, cardNumberPattern, LogSecretKind.cardNumber, ([digits]) =>
      passesLuhn(digits) ? `${'•'.repeat(digits.length - 4)}${digits.slice(-4)}` : undefined,
    ),
  ];
  // A signing secret's base64 can hold a run of 43 slug characters (`whsec_` and the 37 before a `+`
  // or `/`), and any prefixed secret a run of digits: such a run is that secret, reported once.
  const outside = unprefixed.filter((run) => !prefixed.some((secret) => overlaps(run, secret)));
  return [...prefixed, ...outside].sort((a, b) => a.index - b.index).map(({ end: _, ...secret }) => secret);
}

interface Match extends LogSecret {
  /** Where the match ends in the line (exclusive). */
  readonly end: number;
}

function overlaps(a: Match, b: Match): boolean {
  return a.index < b.end && b.index < a.end;
}

function matches(
  line: string,
  pattern: RegExp,
  kind: LogSecretKind,
  mask: (match: RegExpExecArray) => string | undefined,
): Match[] {
  return [...line.matchAll(pattern)].flatMap((match) => {
    const masked = mask(match);
    return masked === undefined
      ? []
      : [{ kind, index: match.index, end: match.index + match[0].length, masked }];
  });
}

/** The Luhn check digit test every card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let position = 0; position < digits.length; position += 1) {
    let digit = Number(digits[digits.length - 1 - position]);
    if (position % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
