import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

/** A portal route's 404 `not_found`, in the API's error shape, for a path it serves nothing at. */
export function portalNotFound(event: APIGatewayProxyEvent, message: string): APIGatewayProxyResult {
  const requestId = event.requestContext?.requestId ?? '';
  return {
    statusCode: 404,
    headers: { 'Content-Type': 'application/json', 'Request-Id': requestId },
    body: JSON.stringify({ error: { code: 'not_found', message, requestId } }),
  };
}
