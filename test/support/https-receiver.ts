import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';
import { loadTestCa } from './test-ca';

/** One request as the receiver got it. */
export interface ReceivedRequest {
  readonly method: string;
  /** Path and query string, as sent on the request line. */
  readonly path: string;
  /** Lowercased names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body bytes exactly as received, for signature checks. */
  readonly rawBody: Buffer;
  /** `Date.now()` when the request head arrived. */
  readonly receivedAt: number;
}

/** What the receiver answers to one request. */
export interface ReceiverResponse {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** Waits this long before answering. */
  readonly delayMs?: number;
  /** Never answers and keeps the socket open, so the sender's timeout fires; `close()` destroys it. */
  readonly hang?: boolean;
  /** Ends the connection with a TCP reset instead of answering. */
  readonly reset?: boolean;
  /** Closes the connection without an answer (no reset), so the sender sees the socket hang up. */
  readonly drop?: boolean;
  /** Sends `status` and then this many bytes of body, written as the sender reads them. */
  readonly streamBytes?: number;
  /** Called the moment the answer has been handed to the socket (the response's `finish`). */
  readonly onFinish?: () => void;
}

export type ResponseHandler = (request: ReceivedRequest) => ReceiverResponse | Promise<ReceiverResponse>;

export interface HttpsReceiverOptions {
  /** Folder of the test CA (`createTestCa`); defaults to the run's, `inject('testCaDir')`. */
  readonly caDir?: string;
  readonly respondWith?: ResponseHandler;
  /** Key and certificate to serve instead of the test CA's trusted `localhost` one. */
  readonly certificate?: { readonly key: string; readonly cert: string };
}

export interface HttpsReceiver {
  /** `https://localhost:<port><path>`. */
  url(path?: string): string;
  readonly port: number;
  /** TLS connections accepted since the start: each one cost the sender a handshake. */
  readonly tlsConnections: number;
  /** Every request received since the start or the last `clear()`, oldest first (a live array). */
  readonly requests: ReceivedRequest[];
  /** Replaces how the receiver answers from now on. */
  respondWith(handler: ResponseHandler): void;
  /** Resolves with the requests once at least `count` have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Forgets the requests received so far (the response handler is kept). */
  clear(): void;
  /** Stops listening and destroys every open socket, hung ones included. */
  close(): Promise<void>;
}

export const defaultResponse: ResponseHandler = () => ({ status: 200, body: 'ok' });

const DefaultWaitMs = 5_000;
const ListenAttempts = 5;

interface Waiter {
  readonly count: number;
  readonly resolve: (requests: ReceivedRequest[]) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * A real HTTPS endpoint for webhook deliveries, serving the test CA's `localhost` certificate, which
 * the test workers trust through NODE_EXTRA_CA_CERTS (test/global-setup.ts). It listens on 127.0.0.1
 * and, where the host has IPv6, on ::1 with the same port, since `localhost` may resolve to either.
 */
export async function startHttpsReceiver(options: HttpsReceiverOptions = {}): Promise<HttpsReceiver> {
  const ca = await loadTestCa(options.caDir ?? inject('testCaDir'));
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<Waiter>();
  const pendingTimers = new Set<NodeJS.Timeout>();
  let handler = options.respondWith ?? defaultResponse;
  let closed = false;

  const settleWaiters = () => {
    for (const waiter of waiters) {
      if (requests.length < waiter.count) continue;
      waiters.delete(waiter);
      clearTimeout(waiter.timer);
      waiter.resolve([...requests]);
    }
  };

  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const receivedAt = Date.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: ReceivedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: Object.fromEntries(
        Object.entries(req.headersDistinct).map(([name, values]) => [name, (values ?? []).join(', ')]),
      ),
      rawBody: Buffer.concat(chunks),
      receivedAt,
    };
    requests.push(request);
    settleWaiters();

    let response: ReceiverResponse;
    try {
      response = await handler(request);
    } catch (error) {
      response = { status: 500, body: `receiver handler failed: ${String(error)}` };
    }
    if (response.hang === true) return;
    if (response.reset === true) {
      req.socket.resetAndDestroy();
      return;
    }
    if (response.drop === true) {
      req.socket.destroy();
      return;
    }
    if (response.delayMs !== undefined && response.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          pendingTimers.delete(timer);
          resolve();
        }, response.delayMs);
        pendingTimers.add(timer);
      });
    }
    if (res.destroyed) return;
    if (response.onFinish !== undefined) res.once('finish', response.onFinish);
    res.writeHead(response.status, response.headers);
    if (response.streamBytes !== undefined) return streamBody(res, response.streamBytes);
    res.end(response.body);
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    answer(req, res).catch(() => res.destroy());
  };
  let tlsConnections = 0;
  const { port, servers } = await listenOnLoopback(() =>
    createServer(options.certificate ?? { key: ca.serverKeyPem, cert: ca.serverCertPem }, onRequest).on(
      'secureConnection',
      () => {
        tlsConnections += 1;
      },
    ),
  );

  return {
    url: (path = '/hooks') => `https://localhost:${port}${path}`,
    port,
    get tlsConnections() {
      return tlsConnections;
    },
    requests,
    respondWith: (next) => {
      handler = next;
    },
    waitFor: (count, timeoutMs = DefaultWaitMs) => {
      if (requests.length >= count) return Promise.resolve([...requests]);
      if (closed) return Promise.reject(new Error('The HTTPS receiver is closed.'));
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          count,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter);
            reject(
              new Error(`Expected ${count} request(s) within ${timeoutMs} ms; received ${requests.length}.`),
            );
          }, timeoutMs),
        };
        waiters.add(waiter);
      });
    },
    clear: () => {
      requests.length = 0;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      for (const timer of pendingTimers) clearTimeout(timer);
      pendingTimers.clear();
      for (const waiter of waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error('The HTTPS receiver closed before the requests arrived.'));
      }
      waiters.clear();
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              // Hung and keep-alive sockets would hold close() open forever.
              server.closeAllConnections();
            }),
        ),
      );
    },
  };
}

/** Writes `total` bytes in 64 KB chunks, each once the last has drained, until the sender hangs up. */
async function streamBody(res: ServerResponse, total: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  for (let sent = 0; sent < total && !res.destroyed; sent += chunk.byteLength) {
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!res.destroyed) res.end();
}

/**
 * Listens on 127.0.0.1 on a port the OS picks, then on ::1 with that same port. When ::1 has it
 * taken, everything is retried on a fresh port; when the host has no IPv6, 127.0.0.1 alone serves.
 */
async function listenOnLoopback(create: () => Server): Promise<{ port: number; servers: Server[] }> {
  for (let attempt = 1; ; attempt += 1) {
    const ipv4 = create();
    await listen(ipv4, 0, '127.0.0.1');
    const { port } = ipv4.address() as AddressInfo;
    const ipv6 = create();
    try {
      await listen(ipv6, port, '::1');
      return { port, servers: [ipv4, ipv6] };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT') return { port, servers: [ipv4] };
      await new Promise((resolve) => ipv4.close(resolve));
      if (code !== 'EADDRINUSE' || attempt >= ListenAttempts) throw error;
    }
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
