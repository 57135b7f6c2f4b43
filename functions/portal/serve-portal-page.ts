import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { portalFramingHeaders, portalSessionIdPattern } from '../domain/portal-framing';
import { getPortalSession } from '../store/portal-sessions';
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
 * the status never tells which ids exist. The link's token stays in the fragment, which the request
 * never carries.
 */
export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const portalSessionId = event.pathParameters?.portalSessionId ?? '';
  const session = portalSessionIdPattern.test(portalSessionId)
    ? await getPortalSession(portalSessionId)
    : undefined;
  return {
    statusCode: 200,
    headers: { ...portalPageHeaders, ...portalFramingHeaders(session, new Date()) },
    body: portalPageHtml,
  };
}
