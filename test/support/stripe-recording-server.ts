import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the Stripe SDK sent, as the server got it. */
export interface RecordedStripeRequest {
  readonly method: string;
  /** Path and query string, as on the request line (`/v1/accounts`). */
  readonly path: string;
  /** Lowercased names, as Node gives them. */
  readonly headers: IncomingHttpHeaders;
  /** The form-encoded body as name → value pairs, nested names as sent (`metadata[merchantId]`). */
  readonly form: Readonly<Record<string, string>>;
  readonly rawBody: string;
}

/** What the server answers to one request. */
export interface StripeAnswer {
  readonly status?: number;
  /** JSON, shaped like Stripe's: a typed `Stripe.Account`, `Stripe.AccountLink`, or an error body. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Never answers, so the SDK's timeout fires. */
  readonly hang?: boolean;
}

export interface StripeRecordingServer {
  /** `http://127.0.0.1:<port>`: the runtime's `STRIPE_API_BASE_URL`. */
  readonly baseUrl: string;
  /** Every request so far, in arrival order. */
  readonly requests: readonly RecordedStripeRequest[];
  /** The requests to one method and path. */
  requestsTo(method: string, path: string): RecordedStripeRequest[];
  /**
   * Answers the next requests to `method` `path` with `answers`, one each, the last one again for
   * every request after. An unscripted request gets Stripe's 404 `resource_missing`.
   */
  answer(method: string, path: string, ...answers: StripeAnswer[]): void;
  /** Forgets the requests and the scripted answers. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * A local HTTP server standing in for api.stripe.com, as the SDK reaches it through its host, port and
 * protocol options: it records each form-encoded request and answers what the test scripted, so a test
 * asserts the exact parameters and headers the real SDK sent.
 */
export async function startStripeRecordingServer(): Promise<StripeRecordingServer> {
  const requests: RecordedStripeRequest[] = [];
  const scripts = new Map<string, StripeAnswer[]>();
  const hanging = new Set<() => void>();
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    requests.push({
      method,
      path,
      headers: request.headers,
      form: Object.fromEntries(new URLSearchParams(rawBody)),
      rawBody,
    });
    const script = scripts.get(routeKey(method, path));
    const answer =
      (script !== undefined && script.length > 1 ? script.shift() : script?.[0]) ?? missing(path);
    if (answer.hang === true) {
      hanging.add(() => response.destroy());
      return;
    }
    response.writeHead(answer.status ?? 200, {
      'Content-Type': 'application/json',
      'Request-Id': `req_recorded${requests.length}`,
      ...answer.headers,
    });
    response.end(JSON.stringify(answer.body ?? {}));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (method, path) =>
      requests.filter((request) => request.method === method && request.path === path),
    answer: (method, path, ...answers) => {
      scripts.set(routeKey(method, path), [...answers]);
    },
    reset: () => {
      requests.length = 0;
      scripts.clear();
    },
    close: async () => {
      for (const destroy of hanging) destroy();
      const closed = once(server.close(), 'close');
      server.closeAllConnections();
      await closed;
    },
  };
}

function routeKey(method: string, path: string): string {
  return `${method} ${path.split('?')[0]}`;
}

function missing(path: string): StripeAnswer {
  return {
    status: 404,
    body: {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No scripted answer for ${path}`,
      },
    },
  };
}
