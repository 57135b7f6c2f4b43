import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { defaultRouteTimeoutSeconds, isPublic, type RouteDefinition } from '../../functions/route-definition';
import { readAuthorizerCacheFlushToken } from './authorizer-cache-flush';
import { rateLimiter } from './rate-limiter';
import { matchRoute, type RouteMatch } from './route-matcher';

type ProxyEventContext = APIGatewayProxyEvent['requestContext'];
export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export interface LocalGatewayOptions {
  readonly routes: readonly RouteDefinition[];
  readonly loadHandler: (route: RouteDefinition) => Promise<ProxyHandler>;
  readonly authorizer: AuthorizerHandler;
  readonly stage: string;
  readonly host: string;
  readonly port: number;
  /** Seconds an authorizer answer is reused per Authorization header; 0 turns the cache off. */
  readonly authCacheSeconds: number;
  /** Where another process writes a token that empties the authorizer cache (`authorizer-cache-flush.ts`). */
  readonly authCacheFlushFile?: string;
  /** Per client address to public routes, as the stack's web ACL allows. */
  readonly publicRateLimitPerMinute: number;
  /** Served at these paths (GET and HEAD, no key). */
  readonly documents?: Readonly<Record<string, GatewayDocument>>;
}

/** A document the gateway serves: its type, and its content for the gateway's own base URL. */
export interface GatewayDocument {
  readonly contentType: string;
  read(baseUrl: string): Promise<string | Uint8Array>;
}

export interface LocalGateway {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Set while a route's handler runs, to tell a request's cost from the delivery pipeline's in this process. */
export const routeInvocation = new AsyncLocalStorage<{ operationId: string; requestId: string }>();

/** API Gateway refuses payloads over 10 MB before any function runs. */
const gatewayMaxBodyBytes = 10 * 1024 * 1024;

/**
 * A Node HTTP server that behaves like the deployed REST API: it matches the route table, runs the
 * REQUEST authorizer (with its cache), builds the same proxy events, and answers its own errors in
 * the project's error shape, as the stack's gateway responses do. Besides, it serves `documents`,
 * which the deployed API does not have.
 */
export async function startLocalGateway(options: LocalGatewayOptions): Promise<LocalGateway> {
  for (const path of Object.keys(options.documents ?? {})) {
    // A document must never hide a route, or the local API would differ from the deployed one.
    if (matchRoute(options.routes, 'GET', path))
      throw new Error(`The document at ${path} would hide the route GET ${path}`);
  }
  // Known once the server listens, before its first request.
  let baseUrl = '';
  const gateway = new GatewayRequests(options, () => baseUrl);
  const server = createServer((request, response) => {
    gateway.serve(request, response).catch(() => writeGatewayError(response, 500, randomUUID()));
  });
  await once(server.listen(options.port, options.host), 'listening');
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  baseUrl = `http://${host}:${port}`;
  return {
    baseUrl,
    close: async () => {
      const closed = once(server.close(), 'close');
      server.closeAllConnections();
      await closed;
    },
  };
}

class GatewayRequests {
  private readonly authCache = new Map<
    string,
    { result: APIGatewayAuthorizerResult; expiresAt: number; flushToken: string | undefined }
  >();
  private cachedFlushToken: string | undefined = '';
  private readonly publicLimiter: ReturnType<typeof rateLimiter>;

  constructor(
    private readonly options: LocalGatewayOptions,
    private readonly baseUrl: () => string,
  ) {
    this.publicLimiter = rateLimiter({ limit: options.publicRateLimitPerMinute, windowMs: 60_000 });
  }

  async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const url = new URL(request.url ?? '/', 'http://local');
    const method = request.method ?? 'GET';
    const body = await readBody(request);
    if (body === undefined) return writeGatewayError(response, 413, requestId);
    const documents = this.options.documents ?? {};
    const document = Object.hasOwn(documents, url.pathname) ? documents[url.pathname] : undefined;
    const isRead = method === 'GET' || method === 'HEAD';
    if (document !== undefined && isRead) {
      const content = Buffer.from(await document.read(this.baseUrl()));
      return serveDocument(response, { content, contentType: document.contentType }, method, requestId);
    }
    const match = matchRoute(this.options.routes, method, url.pathname);
    if (match === undefined) return writeGatewayError(response, 404, requestId);
    const sourceIp = request.socket.remoteAddress ?? '127.0.0.1';
    const event = proxyEvent(match, url, { method, headers: singleValueHeaders(request), body }, requestId, {
      stage: this.options.stage,
      sourceIp,
    });
    // A public route has no authorizer, only the per-address limit; every other route needs a key.
    if (isPublic(match.route)) {
      if (!this.publicLimiter.allow(sourceIp)) return writeGatewayError(response, 429, requestId);
    } else {
      const authorized = await this.authorize(event);
      if (authorized === undefined) return writeGatewayError(response, 401, requestId);
      event.requestContext.authorizer = { principalId: authorized.principalId, ...authorized.context };
    }
    const handler = await this.options.loadHandler(match.route);
    const result = await routeInvocation.run({ operationId: match.route.operationId, requestId }, () =>
      handler(event, lambdaContext(match.route)),
    );
    response.writeHead(result.statusCode, stringHeaders(result.headers));
    response.end(result.body);
  }

  /** The authorizer's answer for a keyed route, from the cache when it may be; undefined when it denies. */
  private async authorize(event: APIGatewayProxyEvent): Promise<APIGatewayAuthorizerResult | undefined> {
    const authorization = event.headers.Authorization ?? event.headers.authorization;
    // Without the identity source API Gateway answers 401 itself; the authorizer never runs.
    if (!authorization) return undefined;
    const flushToken = this.currentFlushToken();
    const cached = this.authCache.get(authorization);
    // An answer is used only under the token it was asked under: one that was still being
    // computed when a flush came must not outlive that flush.
    const fresh = cached && cached.expiresAt > Date.now();
    if (fresh && flushToken !== undefined && cached.flushToken === flushToken) return cached.result;
    const { stage, authCacheSeconds } = this.options;
    const methodArn = `arn:aws:execute-api:local:000000000000:local/${stage}/${event.httpMethod}${event.resource}`;
    try {
      const requestContext = { ...event.requestContext, authorizer: undefined };
      const result = await this.options.authorizer({ ...event, type: 'REQUEST', methodArn, requestContext });
      const expiresAt = Date.now() + authCacheSeconds * 1000;
      if (authCacheSeconds > 0) this.authCache.set(authorization, { result, expiresAt, flushToken });
      return result;
    } catch {
      return undefined;
    }
  }

  /** Reads the flush file (undefined: unreadable, so no cached answer is trusted); a new token empties the cache. */
  private currentFlushToken(): string | undefined {
    const { authCacheFlushFile, authCacheSeconds } = this.options;
    if (authCacheFlushFile === undefined || authCacheSeconds === 0) return '';
    const token = readAuthorizerCacheFlushToken(authCacheFlushFile);
    if (token !== this.cachedFlushToken) this.authCache.clear();
    this.cachedFlushToken = token;
    return token;
  }
}

function serveDocument(
  response: ServerResponse,
  { content, contentType }: { content: Buffer; contentType: string },
  method: string,
  requestId: string,
) {
  const headers = {
    'Content-Type': contentType,
    'Content-Length': content.length,
    'Request-Id': requestId,
  };
  response.writeHead(200, { ...headers, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
  response.end(method === 'HEAD' ? undefined : content);
}

/** The REST API's proxy event, before the authorizer's answer is added to it. */
function proxyEvent(
  { route, params }: RouteMatch,
  url: URL,
  { method, headers: sent, body }: { method: string; headers: Record<string, string>; body: string },
  requestId: string,
  { stage, sourceIp }: { stage: string; sourceIp: string },
): APIGatewayProxyEvent {
  const names = new Set(url.searchParams.keys());
  const query = Object.fromEntries([...names].map((name) => [name, url.searchParams.getAll(name)]));
  // As a custom domain mapped at its root: the path holds no stage, and the host is the one called.
  const path = url.pathname;
  const domainName = sent.Host ?? sent.host ?? 'localhost';
  const requestContext = { requestId, stage, resourcePath: route.path, httpMethod: method, path, domainName };
  // API Gateway tells its integrations the scheme the client used; here it is plain http.
  const headers = { ...sent, 'X-Forwarded-Proto': 'http' };
  return {
    ...{ resource: route.path, path: url.pathname, httpMethod: method, headers, stageVariables: null },
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: names.size > 0 ? Object.fromEntries(url.searchParams) : null,
    multiValueQueryStringParameters: names.size > 0 ? query : null,
    pathParameters: Object.keys(params).length > 0 ? params : null,
    ...{ body: body === '' ? null : body, isBase64Encoded: false },
    requestContext: {
      ...requestContext,
      authorizer: null,
      identity: { sourceIp },
    } as unknown as ProxyEventContext,
  };
}

function lambdaContext(route: RouteDefinition): Context {
  const deadline = Date.now() + (route.timeoutSeconds ?? defaultRouteTimeoutSeconds) * 1000;
  const { operationId: name } = route;
  return {
    ...{ callbackWaitsForEmptyEventLoop: false, functionName: name, functionVersion: '$LATEST' },
    ...{ invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`, memoryLimitInMB: '256' },
    ...{ awsRequestId: randomUUID(), logGroupName: `/aws/lambda/${name}`, logStreamName: 'local' },
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    ...{ done: () => undefined, fail: () => undefined, succeed: () => undefined },
  };
}

/** Reads the body up to API Gateway's own limit; undefined when it is larger. */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > gatewayMaxBodyBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Header names as the client sent them, as API Gateway passes them on. */
function singleValueHeaders({ rawHeaders }: IncomingMessage): Record<string, string> {
  const pairs = rawHeaders.flatMap((name, index) => (index % 2 === 0 ? [[name, rawHeaders[index + 1]]] : []));
  return Object.fromEntries(pairs);
}

function stringHeaders(headers: APIGatewayProxyResult['headers']): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name, String(value)]));
}

/** The gateway's own answers, in the project's error shape as the stack's gateway responses give them. */
const GatewayErrors = {
  401: { code: 'unauthorized', message: 'The API key is missing or not valid.' },
  404: { code: 'not_found', message: 'No such route.' },
  413: { code: 'payload_too_large', message: 'The request body is too large.' },
  429: { code: 'rate_limited', message: 'Too many requests, try again later.' },
  500: { code: 'internal_error', message: 'An internal error occurred.' },
} as const;

function writeGatewayError(response: ServerResponse, status: keyof typeof GatewayErrors, requestId: string) {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': requestId });
  response.end(JSON.stringify({ error: { ...GatewayErrors[status], requestId } }));
}
