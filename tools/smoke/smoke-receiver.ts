import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../docs/receiving-webhooks/verify-webhook';
import { createLocalCa } from '../webhook-receiver/local-ca';
import { CheckFailure } from './check-failure';

/** Where the smoke receives its webhook. */
export type ReceiverPlace =
  /** An HTTPS receiver on loopback, serving the certificate of the CA in `caDir`, which the local runtime trusts. */
  | { readonly kind: 'this-machine'; readonly caDir: string }
  /** Plain HTTP on `host:port`, reached from the stage through `url`, a tunnel or proxy that ends TLS. */
  | { readonly kind: 'public'; readonly url: string; readonly host: string; readonly port: number };

/** A delivery whose signature verified with the endpoint's secret. */
export interface VerifiedDelivery {
  readonly id: string;
  readonly type: string;
  readonly data: Readonly<Record<string, unknown>>;
  /** `performance.now()` when it arrived. */
  readonly receivedAt: number;
}

export interface SmokeReceiver {
  /** The URL to register as the webhook endpoint. */
  readonly url: string;
  /** Verifies every delivery from now on with this `whsec_…` secret, kept in memory only. */
  trust(secret: string): void;
  /**
   * The first verified delivery `matches` accepts, already received or to come; after `timeoutMs`
   * a `CheckFailure` saying what did arrive.
   */
  waitFor(matches: (delivery: VerifiedDelivery) => boolean, timeoutMs: number): Promise<VerifiedDelivery>;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Ours are a few kilobytes; a larger body is refused unread. */
const MaxBodyBytes = 1024 * 1024;

/** The path the endpoint is registered with: anything else reaching the receiver is not ours. */
const DeliveryPath = '/smoke-webhooks';

/**
 * The smoke's own webhook receiver. Each POST is checked with the published verifier
 * (docs/receiving-webhooks.md): verified → 200, anything else → 401 and counted by its reason, so a
 * failed wait can say what arrived. It logs nothing and never keeps the secret or a body on disk.
 */
export async function startSmokeReceiver(place: ReceiverPlace): Promise<SmokeReceiver> {
  const verified: VerifiedDelivery[] = [];
  const refused = new Map<string, number>();
  const waiters = new Set<() => void>();
  let secret: string | undefined;

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    answer(req, secret).then(
      (outcome) => {
        if (outcome.ok) verified.push(outcome.delivery);
        else refused.set(outcome.reason, (refused.get(outcome.reason) ?? 0) + 1);
        res.writeHead(outcome.ok ? 200 : outcome.status).end();
        for (const waiter of waiters) waiter();
      },
      () => res.destroy(),
    );
  };
  const server = await listening(place, onRequest);
  const port = (server.address() as AddressInfo).port;
  const url = place.kind === 'public' ? place.url : `https://127.0.0.1:${port}${DeliveryPath}`;

  return {
    url,
    trust: (next) => {
      secret = next;
    },
    waitFor: (matches, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = verified.find(matches);
          if (found === undefined) return;
          settle();
          resolve(found);
        };
        const timer = setTimeout(() => {
          settle();
          reject(new CheckFailure(arrivals(verified.length, refused, timeoutMs)));
        }, timeoutMs);
        const settle = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

async function listening(
  place: ReceiverPlace,
  onRequest: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Server> {
  let server: Server;
  if (place.kind === 'public') server = createHttpServer(onRequest);
  else {
    // The CA `npm run webhook-receiver` keeps, so the local runtime, which trusts that one, trusts this
    // receiver too.
    const ca = await createLocalCa(place.caDir, {
      validityDays: 30,
      caName: 'merchant-payments webhook-receiver CA',
    });
    server = createHttpsServer({ key: ca.serverKeyPem, cert: ca.serverCertPem }, onRequest);
  }
  const host = place.kind === 'public' ? place.host : '127.0.0.1';
  const port = place.kind === 'public' ? place.port : 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new CheckFailure(`the receiver cannot listen on ${host}:${port}: ${error.code ?? error.message}`),
      ),
    );
    server.listen({ host, port }, () => resolve());
  });
  return server;
}

type Outcome =
  | { readonly ok: true; readonly delivery: VerifiedDelivery }
  | { readonly ok: false; readonly status: number; readonly reason: string };

async function answer(req: IncomingMessage, secret: string | undefined): Promise<Outcome> {
  const receivedAt = performance.now();
  if (req.method !== 'POST') return { ok: false, status: 405, reason: `a ${req.method} request` };
  const rawBody = await readBody(req);
  if (rawBody === undefined) return { ok: false, status: 413, reason: 'a body over 1 MB' };
  if (secret === undefined)
    return { ok: false, status: 401, reason: 'a delivery before the endpoint existed' };
  const result = verifyWebhook({ secret, headers: req.headers, rawBody });
  if (!result.ok) return { ok: false, status: 401, reason: result.reason };
  const body = JSON.parse(rawBody.toString('utf8')) as { id?: unknown; type?: unknown; data?: unknown };
  if (body.id !== req.headers['merchant-webhook-id'] || typeof body.type !== 'string') {
    return { ok: false, status: 401, reason: 'a body whose id is not its Merchant-Webhook-Id' };
  }
  const data =
    typeof body.data === 'object' && body.data !== null ? (body.data as Record<string, unknown>) : {};
  return { ok: true, delivery: { id: body.id as string, type: body.type, data, receivedAt } };
}

/** The raw body, or undefined past `MaxBodyBytes` (the rest is read and dropped, so the sender gets its answer). */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MaxBodyBytes) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MaxBodyBytes ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function arrivals(verifiedCount: number, refused: ReadonlyMap<string, number>, timeoutMs: number): string {
  const within = `within ${timeoutMs / 1_000} s`;
  const refusals = [...refused].map(([reason, count]) => `${count} × ${reason}`).join(', ');
  if (verifiedCount === 0 && refused.size === 0) return `nothing reached the receiver ${within}`;
  const verifiedPart = `${verifiedCount} verified but not the one awaited`;
  return `no matching delivery ${within}: the receiver got ${verifiedPart}${refusals === '' ? '' : `; refused ${refusals}`}`;
}
