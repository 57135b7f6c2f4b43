/**
 * Where the portal lives: the page is served at `<base>/portal/<portalSessionId>`, and every call it
 * makes goes to `<base>/…`. Deployed stages put `/sandbox` or `/production` before it; the local
 * runtime and a custom domain put nothing (docs/decisions/merchant-portal-page.md).
 */
export interface PortalLocation {
  /** The stage's base path, `''` or e.g. `/sandbox`, never ending in `/`. */
  readonly basePath: string;
  /** The path segment after `/portal/`, as the browser sent it (URL-decoded). */
  readonly portalSessionId: string;
}

const portalPath = /^(.*)\/portal\/([^/]+)\/?$/;

/** The base path and session id a page path names; undefined for a path that is not a portal page. */
export function portalLocation(pathname: string): PortalLocation | undefined {
  const match = portalPath.exec(pathname);
  if (match === null) return undefined;
  const [, basePath = '', segment = ''] = match;
  let portalSessionId: string;
  try {
    portalSessionId = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return { basePath, portalSessionId };
}

/** The URL of an API path (`/events`) relative to the stage, with its query. */
export function apiUrl(
  basePath: string,
  path: string,
  query: Readonly<Record<string, string | undefined>> = {},
): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, value);
  const text = search.toString();
  return `${basePath}${path}${text === '' ? '' : `?${text}`}`;
}
