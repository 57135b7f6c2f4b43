import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import {
  portalFramingHeaders,
  portalPagePathMaxLength,
  portalSessionIdPattern,
} from '../domain/portal-framing';
import { getPortalSession } from '../store/portal-sessions';
import { portalNotFound } from './portal-not-found';
import { portalPageHtml } from './portal-page-document';

/** The headers every portal document carries besides its framing ones. */
export const portalPageHeaders = {
  'Content-Type': 'text/html; charset=utf-8',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
} as const;

/**
 * `GET /portal/{portalSessionId}`: the merchant portal (docs/decisions/merchant-portal-page.md).
 * The same document for every id; only its framing differs, read from the session. An unknown or
 * malformed id gets the page too, framed by nobody, and the page then says the link is not valid:
 * the status never tells which ids exist. An id longer than the route's path parameter allows is
 * a 404, as a malformed id in any API path is. The link's token stays in the fragment, which the
 * request never carries.
 */
export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const portalSessionId = event.pathParameters?.portalSessionId ?? '';
  // Counted in characters (code points), as the route's declared maxLength is.
  if ([...portalSessionId].length > portalPagePathMaxLength) {
    return portalNotFound(event, 'No portal link has this id.');
  }
  const session = portalSessionIdPattern.test(portalSessionId)
    ? await getPortalSession(portalSessionId)
    : undefined;
  return {
    statusCode: 200,
    headers: { ...portalPageHeaders, ...portalFramingHeaders(session, new Date()) },
    body: portalPageHtml,
  };
}
