import { IdPrefix, typeIdPattern } from './ids';
import { frameOriginPattern } from './url-patterns';

/**
 * Who may frame the merchant portal (docs/decisions/merchant-portal-page.md): the origins a portal
 * session allows, while it is live; nobody for an unknown, malformed, revoked or expired session,
 * or for one that allows no origin. The page's policy is otherwise the same for every response.
 */

/** The portal document's policy but for `frame-ancestors`. */
export const portalBasePolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
] as const;

/**
 * The longest path segment the portal page is served for, in characters: far above a `psn_` id's 30,
 * and what the route declares; a longer one can be no link's, and is a 404 like a malformed API path id.
 */
export const portalPagePathMaxLength = 256;

/** A portal session id (`psn_` TypeID); the page looks up no other path segment. */
export const portalSessionIdPattern = typeIdPattern(IdPrefix.portalSession);

/** What of a portal session decides its framing. */
export interface FramingSession {
  readonly allowedOrigins: readonly string[];
  readonly expiresAt: string;
  readonly revokedAt?: string | undefined;
}

/** The sources of `frame-ancestors`: the session's origins, or `'none'`. */
export function frameAncestorsOf(session: FramingSession | undefined, now: Date): string {
  if (session === undefined || session.revokedAt !== undefined) return "'none'";
  if (!(Date.parse(session.expiresAt) > now.getTime())) return "'none'";
  // The schema admits nothing else; an item that holds anything else still writes no source or directive.
  const origins = session.allowedOrigins.filter((origin) => frameOriginPattern.test(origin));
  return origins.length === 0 ? "'none'" : origins.join(' ');
}

/**
 * The framing headers of one response: the whole policy, and `X-Frame-Options: DENY` for browsers
 * that know no `frame-ancestors`, only when nobody may frame the page (it cannot name origins).
 */
export function portalFramingHeaders(session: FramingSession | undefined, now: Date): Record<string, string> {
  const ancestors = frameAncestorsOf(session, now);
  const policy = [...portalBasePolicy, `frame-ancestors ${ancestors}`].join('; ');
  return ancestors === "'none'"
    ? { 'Content-Security-Policy': policy, 'X-Frame-Options': 'DENY' }
    : { 'Content-Security-Policy': policy };
}
