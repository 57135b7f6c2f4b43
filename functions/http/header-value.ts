import type { APIGatewayProxyEvent } from 'aws-lambda';

/** A request header by its lower-case name: API Gateway passes headers in the client's own case. */
export function headerValue(headers: APIGatewayProxyEvent['headers'], name: string): string | undefined {
  for (const [header, value] of Object.entries(headers ?? {})) {
    if (header.toLowerCase() === name) return value;
  }
  return undefined;
}
