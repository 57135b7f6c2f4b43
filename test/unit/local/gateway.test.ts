import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../../functions/route-definition';
import { routeList } from '../../../functions/routes';
import {
  authorizerCacheFlushFile,
  flushLocalAuthorizerCache,
} from '../../../tools/local/authorizer-cache-flush';
import { type LocalGateway, startLocalGateway } from '../../../tools/local/gateway';

let gateway: LocalGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

/**
 * A gateway whose handlers echo the event they were given, and whose authorizer counts its calls
 * and, when given `beforeAnswer`, waits for it before answering.
 */
async function echoGateway(
  authCacheSeconds: number,
  options: { authCacheFlushFile?: string; beforeAnswer?: () => Promise<void> } = {},
) {
  const calls = { authorizer: 0 };
  const events: APIGatewayProxyEvent[] = [];
  gateway = await startLocalGateway({
    routes: routeList,
    stage: 'sandbox',
    host: '127.0.0.1',
    port: 0,
    authCacheSeconds,
    ...(options.authCacheFlushFile === undefined ? {} : { authCacheFlushFile: options.authCacheFlushFile }),
    publicRateLimitPerMinute: 100,
    authorizer: async (event) => {
      calls.authorizer += 1;
      await options.beforeAnswer?.();
      if (event.headers?.Authorization !== 'Bearer good') throw new Error('Unauthorized');
      return {
        principalId: 'mer_1',
        policyDocument: { Version: '2012-10-17', Statement: [] },
        context: { merchantId: 'mer_1' },
      };
    },
    loadHandler: async (route: RouteDefinition) => async (event) => {
      events.push(event);
      return { statusCode: 200, headers: { 'X-Route': route.operationId }, body: '{}' };
    },
  });
  const call = (path: string, init: RequestInit = {}) => fetch(`${gateway?.baseUrl}${path}`, init);
  return { calls, events, call };
}

describe('local gateway', () => {
  it('builds the REST proxy event with path parameters, query and the authorizer context', async () => {
    const { events, call } = await echoGateway(60);
    const response = await call('/catalog/products/prod%5Fx?merchantId=mer_1', {
      headers: { Authorization: 'Bearer good' },
    });
    expect(response.headers.get('x-route')).toBe('getProduct');
    const [event] = events;
    expect(event).toMatchObject({
      resource: '/catalog/products/{productId}',
      path: '/catalog/products/prod%5Fx',
      httpMethod: 'GET',
      pathParameters: { productId: 'prod_x' },
      queryStringParameters: { merchantId: 'mer_1' },
      body: null,
      requestContext: { stage: 'sandbox', authorizer: { merchantId: 'mer_1', principalId: 'mer_1' } },
    });
    expect(event?.requestContext.requestId).toEqual(expect.any(String));
  });

  it('reuses an authorizer answer per Authorization header for the cache period', async () => {
    const { calls, call } = await echoGateway(60);
    for (let index = 0; index < 3; index += 1) {
      await call('/catalog/products?merchantId=mer_1', { headers: { Authorization: 'Bearer good' } });
    }
    expect(calls.authorizer).toBe(1);
  });

  it('asks the authorizer every time when the cache is off', async () => {
    const { calls, call } = await echoGateway(0);
    for (let index = 0; index < 3; index += 1) {
      await call('/catalog/products?merchantId=mer_1', { headers: { Authorization: 'Bearer good' } });
    }
    expect(calls.authorizer).toBe(3);
  });

  it('answers 401 in the error shape without calling the authorizer when the header is missing', async () => {
    const { calls, call } = await echoGateway(60);
    const response = await call('/catalog/products');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: 'unauthorized', message: expect.any(String), requestId: expect.any(String) },
    });
    expect(calls.authorizer).toBe(0);
  });

  it('answers 401 when the authorizer refuses', async () => {
    const { call } = await echoGateway(60);
    const response = await call('/catalog/products', { headers: { Authorization: 'Bearer bad' } });
    expect(response.status).toBe(401);
  });

  it('answers 404 not_found for an unknown route, before authorization', async () => {
    const { calls, call } = await echoGateway(60);
    const response = await call('/nowhere');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expect(calls.authorizer).toBe(0);
  });

  it('answers 413 payload_too_large past API Gateway’s 10 MB', async () => {
    const { call } = await echoGateway(60);
    const response = await call('/catalog/products', {
      method: 'POST',
      headers: { Authorization: 'Bearer good' },
      body: 'x'.repeat(10 * 1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });
});

describe('local gateway authorizer cache flush', () => {
  let stateDir: string;
  beforeEach(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'gateway-flush-'));
  });
  afterEach(() => rm(stateDir, { recursive: true, force: true }));

  const listProducts = (call: (path: string, init?: RequestInit) => Promise<Response>) =>
    call('/catalog/products?merchantId=mer_1', { headers: { Authorization: 'Bearer good' } });

  it('asks the authorizer again on the first request after a flush, then caches again', async () => {
    const { calls, call } = await echoGateway(60, { authCacheFlushFile: authorizerCacheFlushFile(stateDir) });
    await listProducts(call);
    await listProducts(call);
    expect(calls.authorizer).toBe(1);

    await flushLocalAuthorizerCache(stateDir);
    expect((await listProducts(call)).status).toBe(200);
    expect(calls.authorizer).toBe(2);
    await listProducts(call);
    expect(calls.authorizer).toBe(2);
  });

  it('never reuses an answer the authorizer was still computing when the flush came', async () => {
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const answerStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first = true;
    const { calls, call } = await echoGateway(60, {
      authCacheFlushFile: authorizerCacheFlushFile(stateDir),
      beforeAnswer: async () => {
        if (!first) return;
        first = false;
        started();
        await held;
      },
    });
    const inFlight = listProducts(call);
    await answerStarted;
    await flushLocalAuthorizerCache(stateDir);
    // A request after the flush empties the cache and caches its own answer before the held
    // one lands on top of it.
    await listProducts(call);
    release();
    expect((await inFlight).status).toBe(200);
    expect(calls.authorizer).toBe(2);

    await listProducts(call);
    expect(calls.authorizer).toBe(3);
  });
});

describe('local gateway documents', () => {
  it('refuses to start with a document at the path of a route, which it would hide', async () => {
    const start = startLocalGateway({
      routes: routeList,
      stage: 'sandbox',
      host: '127.0.0.1',
      port: 0,
      authCacheSeconds: 0,
      publicRateLimitPerMinute: 100,
      authorizer: async () => {
        throw new Error('Unauthorized');
      },
      loadHandler: async () => async () => ({ statusCode: 200, body: '{}' }),
      documents: { '/catalog/products': { contentType: 'text/markdown', read: async () => '# Notes' } },
    });
    await expect(start).rejects.toThrow('The document at /catalog/products would hide the route GET');
  });
});
