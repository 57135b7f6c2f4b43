import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { apiState } from './api-request';
import { ApiError } from './errors';

/** Bodies over 256 KB are refused before parsing (DESIGN §3). */
export const maxBodyBytes = 256 * 1024;

/** Parses the JSON body of routes that take one; broken JSON is a 400 invalid_json. */
export function jsonBody(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const state = apiState(request.context);
      const { body, isBase64Encoded } = request.event;
      if (body === null || body === undefined || body === '') return;
      const text = isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
      if (Buffer.byteLength(text, 'utf8') > maxBodyBytes) {
        throw new ApiError('payload_too_large', `The request body is larger than ${maxBodyBytes} bytes.`);
      }
      try {
        state.rawBody = JSON.parse(text);
      } catch (error) {
        throw new ApiError('invalid_json', 'The request body is not valid JSON.', { cause: error });
      }
    },
  };
}
