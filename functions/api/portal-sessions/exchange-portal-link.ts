import { randomBytes } from 'node:crypto';
import { functionEnvironment } from '../../config';
import { StageKeyCode } from '../../domain/api-key';
import {
  hashPortalToken,
  newPortalToken,
  PortalLinkGone,
  type PortalSessionRecord,
  PortalSessionState,
  PortalTokenKind,
  parsePortalToken,
  portalSessionState,
  portalSessionView,
  portalTokenMatches,
} from '../../domain/portal-session';
import { isoTimestamp } from '../../domain/time';
import { ApiError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getApiKey } from '../../store/merchants';
import { exchangePortalLink } from '../../store/portal-sessions';
import { portalSessionRoutes } from './routes';

const notALink = () => new ApiError('unauthorized', 'This is not a valid portal link.');

/**
 * Public: opens a portal link, once (docs/decisions/merchant-portal-sessions.md). One conditional
 * write stores the new session token's hash only while the link matches, is unused, unrevoked and
 * unexpired; then the key that made the session must still be active. Nothing about a session is
 * told to a token that does not match it.
 */
export const handler = httpHandler(portalSessionRoutes.exchangePortalLink, async ({ body, now }) => {
  const parsed = parsePortalToken(body.token);
  const stage = functionEnvironment().STAGE;
  if (parsed?.kind !== PortalTokenKind.link || parsed.stageCode !== StageKeyCode[stage]) throw notALink();
  const sessionToken = newPortalToken(PortalTokenKind.session, stage, parsed.portalSessionId, (size) =>
    randomBytes(size),
  );
  const exchange = await exchangePortalLink(parsed.portalSessionId, {
    linkTokenHash: hashPortalToken(body.token),
    sessionTokenHash: hashPortalToken(sessionToken),
    exchangedAt: isoTimestamp(now),
  });
  if (!exchange.exchanged) throw refusal(body.token, exchange.session, now);
  const state = portalSessionState(exchange.session, await getApiKey(exchange.session.keyId), now);
  // The key that made the session was revoked: the session is over, and its link spent with it.
  if (state !== PortalSessionState.usable) throw new PortalLinkGone(state);
  return { status: 200, body: { sessionToken, portalSession: portalSessionView(exchange.session) } };
});

/** Why a link did not open, told only to the holder of the link itself. */
function refusal(token: string, session: PortalSessionRecord | undefined, now: Date): Error {
  if (session === undefined || !portalTokenMatches(token, session.linkTokenHash)) return notALink();
  if (session.revokedAt !== undefined) return new PortalLinkGone('revoked');
  if (session.exchangedAt !== undefined) return new PortalLinkGone('used');
  if (Date.parse(session.expiresAt) <= now.getTime()) return new PortalLinkGone('expired');
  return notALink();
}
