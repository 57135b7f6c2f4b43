import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { InvalidFields, RuleViolation } from '../../../functions/domain/errors';
import { PayLinkDeclineLimitReached } from '../../../functions/domain/pay-link-declines';
import { AnswerableError, type ErrorAnswer } from '../../../functions/errors/answerable-error';
import { ApiError } from '../../../functions/http/errors';
import { httpHandler } from '../../../functions/http/http-handler';
import { ProcessorUnavailableError } from '../../../functions/payments/payment-processor';
import type { RouteDefinition } from '../../../functions/route-definition';
import { text } from '../../../functions/validation/text';
import { printedJsonLinesDuring } from '../../support/printed-json-lines';

const merchantId = 'mer_01h455vb4pex5vsknk084sn02q';

const route = {
  operationId: 'probe',
  method: 'GET',
  path: '/probe',
  summary: 'A route for testing the middleware alone',
  tag: 'Test',
  handler: 'unused',
  merchantScope: 'query',
  request: { query: z.strictObject({ merchantId: text() }) },
  successStatus: 200,
  response: z.strictObject({}),
} as const satisfies RouteDefinition;

function event(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    httpMethod: 'GET',
    path: '/probe',
    headers: {},
    queryStringParameters: { merchantId },
    pathParameters: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1', authorizer: { merchantId } },
    ...overrides,
  } as unknown as APIGatewayProxyEvent;
}

const context = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

describe('httpHandler', () => {
  /** What the route answers when its handler throws `error`. */
  const answerTo = (error: unknown) =>
    httpHandler(route, async () => {
      throw error;
    })(event(), context);

  it('answers an unknown failure with a bare 500: code, message and request id only', async () => {
    const result = await answerTo(
      new Error('connect ECONNREFUSED 10.0.0.1:443 table merchant-payments-production'),
    );
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body)).toEqual({
      error: { code: 'internal_error', message: 'An internal error occurred.', requestId: 'req-1' },
    });
  });

  it('maps an ApiError to its status and code', async () => {
    const result = await answerTo(new ApiError('invalid_state', 'The invoice is paid.'));
    expect(result.statusCode).toBe(409);
    expect(JSON.parse(result.body).error).toEqual({
      code: 'invalid_state',
      message: 'The invoice is paid.',
      requestId: 'req-1',
    });
  });

  it('answers 503 service_unavailable when no payment processor is wired', async () => {
    const result = await answerTo(new ProcessorUnavailableError());
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(result.body).error.code).toBe('service_unavailable');
  });

  it('answers a rule violation with its own code and message', async () => {
    const result = await answerTo(new RuleViolation('limit_exceeded', 'The merchant has 16 endpoints.'));
    expect(result.statusCode).toBe(409);
    expect(JSON.parse(result.body)).toEqual({
      error: { code: 'limit_exceeded', message: 'The merchant has 16 endpoints.', requestId: 'req-1' },
    });
  });

  it('answers invalid fields 400 with one detail per field and the usual message', async () => {
    const result = await answerTo(new InvalidFields([{ path: 'amount', message: 'must be positive' }]));
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body).error).toEqual({
      code: 'validation_error',
      message: 'The request is not valid.',
      requestId: 'req-1',
      details: [{ path: 'amount', message: 'must be positive' }],
    });
  });

  it('answers a pay-link decline limit 429 with the seconds left from the request time', async () => {
    const handler = httpHandler(route, async ({ now }) => {
      throw new PayLinkDeclineLimitReached(new Date(now.getTime() + 90_500), 'slug');
    });
    const result = await handler(event(), context);
    expect(result.statusCode).toBe(429);
    expect(result.headers?.['Retry-After']).toBe('91');
    expect(JSON.parse(result.body).error.code).toBe('rate_limited');
  });

  it('answers any error that declares its answer, whatever feature it comes from', async () => {
    class QuotaSpent extends AnswerableError {
      answer(): ErrorAnswer {
        return { code: 'rate_limited', message: 'Spent.', headers: { 'Retry-After': '7' } };
      }
    }
    const result = await answerTo(new QuotaSpent('internal detail that stays out of the answer'));
    expect(result.statusCode).toBe(429);
    expect(result.headers?.['Retry-After']).toBe('7');
    expect(JSON.parse(result.body)).toEqual({
      error: { code: 'rate_limited', message: 'Spent.', requestId: 'req-1' },
    });
  });

  it('returns the handler response as JSON with the request id header', async () => {
    const handler = httpHandler(route, async ({ query }) => ({
      status: 200,
      body: { seen: query.merchantId },
    }));
    const result = await handler(event(), context);
    expect(result).toEqual({
      statusCode: 200,
      headers: { 'Content-Type': 'application/json', 'Request-Id': 'req-1' },
      body: JSON.stringify({ seen: merchantId }),
    });
  });

  it('refuses a request that reached it without an authorized merchant', async () => {
    const handler = httpHandler(route, async () => ({ status: 200, body: {} }));
    const result = await handler(event({ requestContext: { requestId: 'req-2' } } as never), context);
    expect(result.statusCode).toBe(401);
  });

  it('answers a merchantId given twice 400 naming it, whichever value comes first', async () => {
    const handler = httpHandler(route, async () => ({ status: 200, body: {} }));
    const otherMerchantId = 'mer_01h455vb4pex5vsknk084sn02r';
    for (const values of [
      [merchantId, otherMerchantId],
      [otherMerchantId, merchantId],
      [merchantId, merchantId],
    ]) {
      // As API Gateway and the local gateway give it: the last value, and every value.
      const twice = event({
        queryStringParameters: { merchantId: values[1] as string },
        multiValueQueryStringParameters: { merchantId: values },
      });
      const result = await handler(twice, context);
      expect({ values, status: result.statusCode, error: JSON.parse(result.body).error }).toMatchObject({
        values,
        status: 400,
        error: {
          code: 'validation_error',
          details: [{ path: 'merchantId', message: 'must be given once.' }],
        },
      });
    }
  });

  it('names the request id on every line it logs: the access line and an unhandled error', async () => {
    const failing = httpHandler(route, async () => {
      throw new Error('boom');
    });
    const ok = httpHandler(route, async () => ({ status: 200, body: {} }));
    const lines = await printedJsonLinesDuring(async () => {
      await failing(
        event({ requestContext: { requestId: 'req-3', authorizer: { merchantId } } } as never),
        context,
      );
      await ok(
        event({ requestContext: { requestId: 'req-4', authorizer: { merchantId } } } as never),
        context,
      );
    });
    // stdout and stderr interleave by timestamp only, so the lines are compared as a set.
    const seen = lines.map(({ message, requestId }) => `${message} ${requestId}`).sort();
    expect(seen).toEqual(['request handled req-3', 'request handled req-4', 'unhandled error req-3']);
  });
});

describe('the raw request a handler reads', () => {
  const publicRoute = {
    ...route,
    method: 'POST',
    merchantScope: 'none',
    request: {},
    access: 'public',
    readOnly: true,
  } as const satisfies RouteDefinition;
  const body = '{ "name": "Café ☕",\n  "n": 1 }';

  /** The body bytes and a header as `publicRoute`'s handler saw them. */
  async function seen(overrides: Partial<APIGatewayProxyEvent>) {
    let raw: { body: Buffer | undefined; signature: string | undefined } | undefined;
    const result = await httpHandler(publicRoute, async (request) => {
      raw = { body: request.raw.body, signature: request.raw.header('Stripe-Signature') };
      return { status: 200, body: {} };
    })(event({ httpMethod: 'POST', queryStringParameters: null, ...overrides }), context);
    expect(result.statusCode).toBe(200);
    return raw;
  }

  it('hands over the body’s bytes as sent, not the parsed JSON again, and headers in any case', async () => {
    const raw = await seen({
      body,
      headers: { 'Content-Type': 'application/json', 'stripe-signature': 't=1' },
    });
    expect(raw?.body?.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(raw?.signature).toBe('t=1');
  });

  it('decodes a base64 body API Gateway encoded to its bytes', async () => {
    const raw = await seen({
      body: Buffer.from(body, 'utf8').toString('base64'),
      isBase64Encoded: true,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(raw?.body?.toString('utf8')).toBe(body);
  });

  it('has no body bytes without a body', async () => {
    expect((await seen({ body: null }))?.body).toBeUndefined();
  });
});
