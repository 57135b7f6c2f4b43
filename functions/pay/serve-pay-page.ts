import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { payPageContentSecurityPolicy, payPageHtml } from './pay-page-document';

/** The pay page's headers: its own CSP, no Referer, no sniffing, no framing, revalidated on each visit. */
export const payPageHeaders = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': payPageContentSecurityPolicy,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-cache',
} as const;

/**
 * `GET /pay`: the hosted pay page. Public and the same for everyone; the slug stays in the URL
 * fragment, which a browser never sends, so the request carries nothing to read and nothing is
 * logged about it.
 */
export async function handler(_event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  return { statusCode: 200, headers: { ...payPageHeaders }, body: payPageHtml };
}
