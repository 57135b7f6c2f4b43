import type { PortalSessionInfo } from './api-types';
import { exchangeProblem, LinkProblem } from './link-messages';
import { ApiError, readAnswer } from './portal-api';
import { apiUrl } from './portal-location';

/**
 * Opening the portal: the link's token (the URL fragment, which never reaches a server) is
 * exchanged at once for a session token, the fragment is dropped from the address bar and history,
 * and the session token is kept in `sessionStorage` only: this tab, surviving a reload, never in a
 * URL or a cookie (docs/decisions/merchant-portal-page.md).
 */

export interface OpenSession {
  readonly sessionToken: string;
  readonly portalSession: PortalSessionInfo;
}

export type Opening = { readonly session: OpenSession } | { readonly problem: LinkProblem };

const storageKey = (portalSessionId: string) => `merchant-portal:${portalSessionId}`;

function storedSession(portalSessionId: string): OpenSession | undefined {
  const text = sessionStorage.getItem(storageKey(portalSessionId));
  if (text === null) return undefined;
  try {
    const session = JSON.parse(text) as OpenSession;
    if (
      typeof session.sessionToken === 'string' &&
      session.portalSession?.portalSessionId === portalSessionId
    )
      return session;
  } catch {
    // An unreadable entry is dropped below.
  }
  sessionStorage.removeItem(storageKey(portalSessionId));
  return undefined;
}

export function forgetSession(portalSessionId: string): void {
  sessionStorage.removeItem(storageKey(portalSessionId));
}

async function exchange(basePath: string, token: string): Promise<OpenSession> {
  const response = await fetch(apiUrl(basePath, '/portal/exchange'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
    credentials: 'omit',
    cache: 'no-store',
  });
  return readAnswer<OpenSession>(response);
}

/**
 * The session of this tab: from storage when this tab already opened it, else from a fresh link's
 * token, else the problem. A session has one link, so a tab that holds the session has used its
 * link: opening the same link again there (an app that renders its frame again) keeps the session
 * rather than saying the link was used.
 */
export async function openSession(basePath: string, portalSessionId: string): Promise<Opening> {
  const token = location.hash.slice(1);
  // The fragment goes before anything else can read or record it; the link works once anyway.
  if (token !== '') history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  const stored = storedSession(portalSessionId);
  if (stored !== undefined && Date.parse(stored.portalSession.expiresAt) > Date.now()) {
    return { session: stored };
  }
  if (token !== '') {
    try {
      const session = await exchange(basePath, token);
      // The page's framing was decided for the session its path names; a token of another is refused.
      if (session.portalSession.portalSessionId !== portalSessionId)
        return { problem: LinkProblem.invalidLink };
      sessionStorage.setItem(storageKey(portalSessionId), JSON.stringify(session));
      return { session };
    } catch (error) {
      return { problem: exchangeProblem(error instanceof ApiError ? error.code : undefined) };
    }
  }
  if (stored === undefined) return { problem: LinkProblem.noToken };
  forgetSession(portalSessionId);
  return { problem: LinkProblem.expired };
}
