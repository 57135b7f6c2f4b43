import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type { ErrorCode, GatewayErrorCode } from '../../functions/http/errors';

/**
 * One API Gateway response rewritten into the API's error shape
 * (docs/architecture.md#conventions-for-every-endpoint).
 */
export interface GatewayErrorResponse {
  readonly type: apigateway.ResponseType;
  /** Omitted: keep the status API Gateway chose (e.g. 502 vs 504 tells a client what to retry). */
  readonly statusCode?: string;
  /** One of the codes the OpenAPI document's Error schema lists. */
  readonly code: ErrorCode | GatewayErrorCode;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const unauthorized = {
  statusCode: '401',
  code: 'unauthorized',
  message: 'Missing or invalid API key.',
  // RFC 6750 §3: a 401 names the scheme the client must use.
  headers: { 'WWW-Authenticate': 'Bearer' },
} as const;

/**
 * API Gateway's own responses (authorizer, throttling, unknown route, body too large), customized
 * so a client sees one error shape whoever answered (docs/decisions/infrastructure-cdk.md).
 */
export const gatewayErrorResponses: readonly GatewayErrorResponse[] = [
  { type: apigateway.ResponseType.UNAUTHORIZED, ...unauthorized },
  // The authorizer denies only for a bad key, so a deny is a 401, never a 403 (docs/decisions/auth.md).
  { type: apigateway.ResponseType.ACCESS_DENIED, ...unauthorized },
  // API Gateway answers an unknown route or method with MISSING_AUTHENTICATION_TOKEN (403).
  {
    type: apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: '404',
    code: 'not_found',
    message: 'No route matches this method and path.',
  },
  {
    type: apigateway.ResponseType.RESOURCE_NOT_FOUND,
    statusCode: '404',
    code: 'not_found',
    message: 'Resource not found.',
  },
  {
    type: apigateway.ResponseType.REQUEST_TOO_LARGE,
    statusCode: '413',
    code: 'payload_too_large',
    message: 'Request body is too large.',
  },
  {
    type: apigateway.ResponseType.THROTTLED,
    statusCode: '429',
    code: 'rate_limited',
    message: 'Too many requests, try again later.',
    headers: { 'Retry-After': '1' },
  },
  { type: apigateway.ResponseType.DEFAULT_4XX, code: 'bad_request', message: 'The request was rejected.' },
  { type: apigateway.ResponseType.DEFAULT_5XX, code: 'internal_error', message: 'Internal error.' },
];

/**
 * Messages are fixed text: VTL would evaluate `$` and `#`, and a backslash or quote would need JSON
 * escaping, so anything outside this alphabet is refused at synth time.
 */
const safeMessage = /^[A-Za-z0-9 .,'()-]+$/;
const safeCode = /^[a-z_]+$/;

/** The `application/json` mapping template of an error response. */
export function errorResponseTemplate(code: string, message: string): string {
  if (!safeCode.test(code) || !safeMessage.test(message)) {
    throw new Error(`Gateway response code or message holds characters unsafe in VTL: ${code} / ${message}`);
  }
  return `{"error":{"code":"${code}","message":"${message}","requestId":"$context.requestId"}}`;
}

/** Adds every gateway response of `gatewayErrorResponses` to the API. */
export function addGatewayErrorResponses(api: apigateway.RestApi): void {
  for (const response of gatewayErrorResponses) {
    const headers = Object.entries(response.headers ?? {}).map(([name, value]) => [name, `'${value}'`]);
    api.addGatewayResponse(response.type.responseType, {
      type: response.type,
      ...(response.statusCode === undefined ? {} : { statusCode: response.statusCode }),
      responseHeaders: { 'Content-Type': "'application/json'", ...Object.fromEntries(headers) },
      templates: { 'application/json': errorResponseTemplate(response.code, response.message) },
    });
  }
}
