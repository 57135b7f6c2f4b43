import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ApiResponse } from './api-request';

export function jsonResponse(
  response: ApiResponse,
  requestId: string,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return {
    statusCode: response.status,
    headers: { 'Content-Type': 'application/json', 'Request-Id': requestId, ...headers },
    body: JSON.stringify(response.body),
  };
}
