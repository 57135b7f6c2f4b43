import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the proxy got it, before it decided what to do with it. */
export interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  readonly idempotencyKey: string | undefined;
  /** `performance.now()` when its head arrived. */
  readonly receivedAt: number;
}

/**
 * What the proxy does with one request: `forward` it and pass the answer back; `dropAnswer`: forward
 * it, let the upstream finish, then close the connection without answering (the change is made,
 * the caller never hears); `answer` in the upstream's place; `hang` until the caller gives up.
 */
export type ProxyAction =
  | { kind: 'forward' }
  | { kind: 'dropAnswer' }
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body: unknown }
  | { kind: 'hang' };

export interface FaultProxy {
  readonly url: string;
  readonly requests: ProxiedRequest[];
  /** Decides what happens to each request from now on, by the order it arrives in (0 first). */
  plan(decide: (request: ProxiedRequest, index: number) => ProxyAction): void;
  close(): Promise<void>;
}

/** A real HTTP proxy in front of the local gateway that drops, delays or answers requests as planned. */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  let decide: (request: ProxiedRequest, index: number) => ProxyAction = () => ({ kind: 'forward' });
  const hung = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const seen: ProxiedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      receivedAt: performance.now(),
    };
    const action = decide(seen, requests.length);
    requests.push(seen);
    if (action.kind === 'hang') {
      hung.add(res);
      return;
    }
    if (action.kind === 'answer') {
      req.resume();
      res.writeHead(action.status, { 'Content-Type': 'application/json', ...action.headers });
      res.end(JSON.stringify(action.body));
      return;
    }
    forward(target, req, res, action.kind === 'dropAnswer');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, '')}`,
    requests,
    plan(next) {
      decide = next;
    },
    async close() {
      for (const res of hung) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function forward(target: URL, req: IncomingMessage, res: ServerResponse, dropAnswer: boolean): void {
  const upstream = httpRequest(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      if (dropAnswer) {
        answer.resume();
        answer.on('end', () => res.socket?.destroy());
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.socket?.destroy());
  req.pipe(upstream);
}
