import { createHash, timingSafeEqual } from 'node:crypto';
import type { Stage } from '../config';
import { AnswerableError, type ErrorAnswer } from '../errors/answerable-error';
import { type ApiKeyRecordState, ApiKeyStatus, effectiveKeyStatus, StageKeyCode } from './api-key';

/**
 * A portal session: a short-lived, single-merchant grant to the webhook pages of the merchant portal,
 * opened by a link the merchant's own backend mints (docs/decisions/merchant-portal-sessions.md).
 */

/** `read` sees endpoints, deliveries and events; `manage` may also change them. */
export const PortalScope = { read: 'read', manage: 'manage' } as const;
export type PortalScope = (typeof PortalScope)[keyof typeof PortalScope];

export const PortalSessionLimits = {
  defaultExpiresInSeconds: 3600,
  minExpiresInSeconds: 60,
  maxExpiresInSeconds: 86_400,
  maxAllowedOrigins: 10,
  /** The item stays readable this long past its expiry, for the answer "expired" rather than "unknown". */
  keptAfterExpirySeconds: 7 * 86_400,
} as const;

/** An origin as a browser writes it in `Origin` and matches it in `frame-ancestors`: no default port. */
export function browserOrigin(origin: string): string {
  return origin.replace(
    /^(https:\/\/[^/]+):443$|^(http:\/\/[^/]+):80$/,
    (_all, secure, plain) => secure ?? plain,
  );
}

/** The session as the API shows it: no hash, no token. */
export interface PortalSession {
  readonly portalSessionId: string;
  readonly merchantId: string;
  readonly scope: PortalScope;
  readonly allowedOrigins: readonly string[];
  readonly createdAt: string;
  readonly expiresAt: string;
  /** Set once, when the link is exchanged for the session token. */
  readonly exchangedAt?: string;
  readonly revokedAt?: string;
}

/** What the table keeps of a session: the hashes of its two tokens, never a token. */
export interface PortalSessionRecord extends PortalSession {
  /** The API key that made it: revoking that key ends the session. */
  readonly keyId: string;
  readonly linkTokenHash: string;
  /** Set with `exchangedAt`. */
  readonly sessionTokenHash?: string;
}

export function portalSessionView(record: PortalSessionRecord): PortalSession {
  const { keyId: _keyId, linkTokenHash: _link, sessionTokenHash: _session, ...view } = record;
  return view;
}

/**
 * The two tokens: `portallink_…` opens the portal once and travels in the link's fragment;
 * `portal_…` is what the page then sends as its bearer. Both embed the session id's 26 characters,
 * so a check is one read by key, and the stage code, so a token of one stage is refused by the other.
 */
export const PortalTokenKind = { link: 'portallink', session: 'portal' } as const;
export type PortalTokenKind = (typeof PortalTokenKind)[keyof typeof PortalTokenKind];

const tokenPattern = /^(portallink|portal)_(sbx|prd)([0-7][0-9a-hjkmnp-tv-z]{25})_([A-Za-z0-9_-]{43})$/;

export interface ParsedPortalToken {
  readonly kind: PortalTokenKind;
  readonly stageCode: string;
  readonly portalSessionId: string;
}

export function parsePortalToken(token: string): ParsedPortalToken | undefined {
  const match = tokenPattern.exec(token);
  if (match === null) return undefined;
  const [, kind = '', stageCode = '', suffix = ''] = match;
  return { kind: kind as PortalTokenKind, stageCode, portalSessionId: `psn_${suffix}` };
}

/** A token of `kind` for the session, from 32 random bytes. */
export function newPortalToken(
  kind: PortalTokenKind,
  stage: Stage,
  portalSessionId: string,
  randomBytes: (size: number) => Uint8Array,
): string {
  const suffix = portalSessionId.slice('psn_'.length);
  return `${kind}_${StageKeyCode[stage]}${suffix}_${Buffer.from(randomBytes(32)).toString('base64url')}`;
}

export function hashPortalToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented token with a stored hash. */
export function portalTokenMatches(token: string, storedHash: string | undefined): boolean {
  if (storedHash === undefined) return false;
  const presented = Buffer.from(hashPortalToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** Why a session can no longer be used, or `usable`. */
export const PortalSessionState = {
  usable: 'usable',
  expired: 'expired',
  revoked: 'revoked',
} as const;
export type PortalSessionState = (typeof PortalSessionState)[keyof typeof PortalSessionState];

/**
 * A session ends at its expiry, when revoked, and when the API key that made it is no longer active
 * (revoked or expired): a merchant who revokes a leaked key ends every portal session it made.
 */
export function portalSessionState(
  record: Pick<PortalSessionRecord, 'expiresAt' | 'revokedAt'>,
  key: ApiKeyRecordState | undefined,
  now: Date,
): PortalSessionState {
  const keyActive = key !== undefined && effectiveKeyStatus(key, now) === ApiKeyStatus.active;
  if (record.revokedAt !== undefined || !keyActive) return PortalSessionState.revoked;
  if (Date.parse(record.expiresAt) <= now.getTime()) return PortalSessionState.expired;
  return PortalSessionState.usable;
}

/** The answers of a link that cannot be exchanged: used, expired or revoked (410 each). */
export class PortalLinkGone extends AnswerableError {
  override name = 'PortalLinkGone';
  readonly code: 'portal_link_used' | 'portal_session_expired' | 'portal_session_revoked';
  constructor(reason: 'used' | 'expired' | 'revoked') {
    const answers = {
      used: ['portal_link_used', 'This portal link has already been opened; ask for a new link.'],
      expired: ['portal_session_expired', 'This portal link has expired; ask for a new link.'],
      revoked: ['portal_session_revoked', 'This portal session was revoked; ask for a new link.'],
    } as const;
    const [code, message] = answers[reason];
    super(message);
    this.code = code;
  }

  answer(): ErrorAnswer {
    return { code: this.code, message: this.message };
  }
}
