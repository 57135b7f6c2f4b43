import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { errorHandler } from '../../functions/http/error-handler';

/**
 * A function wired like a route, through the real error handler, whose one step fails for the
 * path `/fail` with an error the handler does not know: the 500 whose stack it logs.
 */
function answerOrFail(path: string): APIGatewayProxyResult {
  if (path === '/fail') throw new Error('the step failed');
  return { statusCode: 204, body: '' };
}

export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
  .use(errorHandler())
  .handler(async (event) => answerOrFail(event.path));
