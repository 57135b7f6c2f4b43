import type { Stage } from '../config';
import {
  ApiKeyStatus,
  apiKeyMatches,
  effectiveKeyStatus,
  parseApiKey,
  StageKeyCode,
} from '../domain/api-key';
import {
  type PortalSessionRecord,
  PortalSessionState,
  PortalTokenKind,
  parsePortalToken,
  portalSessionState,
  portalTokenMatches,
} from '../domain/portal-session';
import type { Principal } from '../domain/principal';
import type { ApiKeyRecord } from '../store/merchants';

export type AuthorizationResult =
  | { readonly allowed: true; readonly merchantId: string; readonly principal: Principal }
  | { readonly allowed: false; readonly reason: string };

export interface AuthorizationContext {
  readonly stage: Stage;
  readonly now: Date;
  readonly findKey: (keyId: string) => Promise<ApiKeyRecord | undefined>;
  readonly findPortalSession: (portalSessionId: string) => Promise<PortalSessionRecord | undefined>;
}

/** The scheme is case-insensitive and may be followed by several spaces (RFC 9110 §11.1, §11.4). */
const bearerPattern = /^bearer +(\S+)$/i;

/**
 * Decides whether an Authorization header grants access on this stage. Every refusal is the same
 * 401 to the caller; `reason` is for logs only and never holds the key.
 */
export async function authorize(
  authorization: string | undefined,
  context: AuthorizationContext,
): Promise<AuthorizationResult> {
  const token = authorization === undefined ? undefined : bearerPattern.exec(authorization.trim())?.[1];
  if (token === undefined) return { allowed: false, reason: 'missing or non-bearer Authorization header' };
  if (token.startsWith(`${PortalTokenKind.session}_`)) return authorizePortalSession(token, context);
  const parsed = parseApiKey(token);
  if (parsed === undefined) return { allowed: false, reason: 'malformed key' };
  if (parsed.stageCode !== StageKeyCode[context.stage])
    return { allowed: false, reason: 'key of another stage' };
  const record = await context.findKey(parsed.keyId);
  if (record === undefined || !apiKeyMatches(token, record.keyHash)) {
    return { allowed: false, reason: 'unknown key' };
  }
  const status = effectiveKeyStatus(record, context.now);
  if (status !== ApiKeyStatus.active) return { allowed: false, reason: `${status} key` };
  return {
    allowed: true,
    merchantId: record.merchantId,
    principal: { kind: 'apiKey', keyId: record.keyId, keyPrefix: record.keyPrefix },
  };
}

/**
 * A portal session's bearer (docs/decisions/merchant-portal-sessions.md): the session it names must
 * hold its hash, be unexpired and unrevoked, and the API key that made it still active. A link token
 * is never a bearer: it opens the session, once, through the exchange.
 */
async function authorizePortalSession(
  token: string,
  context: AuthorizationContext,
): Promise<AuthorizationResult> {
  const parsed = parsePortalToken(token);
  if (parsed === undefined || parsed.kind !== PortalTokenKind.session) {
    return { allowed: false, reason: 'malformed portal session token' };
  }
  if (parsed.stageCode !== StageKeyCode[context.stage]) {
    return { allowed: false, reason: 'portal session token of another stage' };
  }
  const session = await context.findPortalSession(parsed.portalSessionId);
  if (session === undefined || !portalTokenMatches(token, session.sessionTokenHash)) {
    return { allowed: false, reason: 'unknown portal session token' };
  }
  const key = await context.findKey(session.keyId);
  const state = portalSessionState(session, key, context.now);
  if (state !== PortalSessionState.usable) return { allowed: false, reason: `${state} portal session` };
  return {
    allowed: true,
    merchantId: session.merchantId,
    principal: {
      kind: 'portalSession',
      portalSessionId: session.portalSessionId,
      scope: session.scope,
      keyId: session.keyId,
      keyPrefix: key?.keyPrefix ?? '',
    },
  };
}
