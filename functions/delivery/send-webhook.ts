import type { ClientRequest, IncomingMessage } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import * as tls from 'node:tls';
import type { AttemptOutcome } from '../domain/webhook-delivery';
import { type HostLookup, pinnedRequestOptions, type ResolvedAddress, resolveTarget } from './resolve-target';

/**
 * Response bodies of attempts are not stored: at most 4 KB of a response is read, then the socket is closed.
 */
export const maxResponseBytes = 4096;

/**
 * An attempt's recorded values (docs/decisions/delivery-pipeline.md); `errorMessage` never holds the
 * request's headers or body (they carry signatures).
 */
export type { AttemptOutcome };

export type WebhookRequest = {
  url: string;
  /** Sent as given, except `Host`, `Content-Length` and `Transfer-Encoding`, which are always ours. */
  headers: Record<string, string>;
  /** Sent as its UTF-8 bytes, exactly. */
  body: string;
  /**
   * One budget for DNS, connect, TLS and the response headers (10 s:
   * docs/receiving-webhooks.md#answering-retries-and-deduplication).
   */
  timeoutMs: number;
  /**
   * The local runtime's WEBHOOK_ALLOW_PRIVATE_TARGETS (docs/architecture.md#the-local-runtime): loopback
   * only, nothing else.
   */
  allowLoopback: boolean;
  /** Injected by tests; defaults to the system resolver. */
  lookup?: HostLookup | undefined;
  /**
   * Trusted in addition to Node's default authorities (its bundled roots and NODE_EXTRA_CA_CERTS): the
   * local runtime's receiver CA (docs/decisions/local-webhooks-without-a-restart.md) and tests. AWS
   * passes none.
   */
  ca?: string | Buffer | undefined;
  /** Milliseconds on a monotonic clock; defaults to `performance.now`. */
  now?: (() => number) | undefined;
};

type Result = Omit<AttemptOutcome, 'durationMs'>;

/**
 * One keep-alive agent per vetted target (host name, address, port): a warm dispatcher reuses its
 * TLS connections to an endpoint, and a pooled socket can only ever be one opened to an address
 * that was vetted. A host that now resolves elsewhere gets another agent, after its own vetting.
 */
const agents = new Map<string, Agent>();
const maxAgents = 256;
/** Concurrent connections to one vetted target: the dispatcher's batch size. */
const connectionsPerTarget = 10;

function agentFor(target: ResolvedAddress, hostname: string, port: number, ca: WebhookRequest['ca']): Agent {
  const key = [hostname, target.address, port, ca === undefined ? '' : 'ca'].join('|');
  let agent = agents.get(key);
  if (agent === undefined) {
    if (agents.size >= maxAgents) {
      for (const stale of agents.values()) stale.destroy();
      agents.clear();
    }
    // As many idle connections are kept as a dispatcher batch opens (10 messages, attempted at
    // once), so the next batch to the same receiver reuses them instead of new TLS handshakes.
    agent = new Agent({
      keepAlive: true,
      maxSockets: connectionsPerTarget,
      maxFreeSockets: connectionsPerTarget,
      timeout: 30_000,
    });
    agents.set(key, agent);
  }
  return agent;
}

/**
 * POSTs one webhook to a merchant endpoint and reports the attempt; it never throws. The host is
 * vetted by `resolveTarget` (docs/decisions/endpoint-management.md) and the socket is pinned to the vetted
 * address, through a keep-alive agent of that address only. A 3xx is a failed attempt and its
 * `Location` is never followed. Once the response headers are in, at most `maxResponseBytes` of the
 * body are read and discarded: a response that ends within them leaves its connection for the next
 * attempt; a longer one has its socket destroyed, so an endless body cannot hold the attempt.
 */
export async function sendWebhook(request: WebhookRequest): Promise<AttemptOutcome> {
  const now = request.now ?? (() => performance.now());
  const started = now();
  const deadline = startDeadline(request.timeoutMs);
  let result: Result;
  try {
    result = await attempt(request, deadline);
  } catch (error) {
    result = failed(`The attempt failed unexpectedly${codeSuffix(error)}.`);
  } finally {
    deadline.clear();
  }
  let durationMs = Math.max(0, Math.round(now() - started));
  // Node's timers run on a cached loop clock and may fire a fraction of a millisecond early.
  if (result.errorMessage === timeoutMessage(request.timeoutMs)) {
    durationMs = Math.max(durationMs, Math.ceil(request.timeoutMs));
  }
  return { ...result, durationMs };
}

async function attempt(request: WebhookRequest, deadline: Deadline): Promise<Result> {
  const url = parseUrl(request.url);
  if (typeof url === 'string') return failed(url);
  const target = await Promise.race([
    resolveTarget(url, {
      allowLoopback: request.allowLoopback,
      ...(request.lookup === undefined ? {} : { lookup: request.lookup }),
    }),
    deadline.expired,
  ]);
  if (target === expired) return failed(timeoutMessage(request.timeoutMs));
  if (!target.ok) return failed(target.reason);
  return post(url, target, request, deadline);
}

function post(
  url: URL,
  target: ResolvedAddress,
  request: WebhookRequest,
  deadline: Deadline,
): Promise<Result> {
  return new Promise((resolve) => {
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const body = Buffer.from(request.body, 'utf8');
    const port = url.port === '' ? 443 : Number(url.port);
    let req: ClientRequest;
    try {
      req = httpsRequest({
        method: 'POST',
        hostname,
        port,
        path: `${url.pathname}${url.search}`,
        headers: { ...ownHeadersRemoved(request.headers), 'Content-Length': String(body.byteLength) },
        agent: agentFor(target, hostname, port, request.ca),
        ...(request.ca === undefined ? {} : { ca: [...defaultAuthorities(), request.ca] }),
        ...pinnedRequestOptions(target, hostname),
      });
    } catch (error) {
      // Invalid header names or values throw here, and their messages quote the value: code only.
      resolve(failed(`The request could not be built${codeSuffix(error)}.`));
      return;
    }

    let response: IncomingMessage | undefined;
    let settled = false;
    /** `reusable`: the response was read to its end, so the socket may go back to the pool. */
    const settle = (result: Result, reusable = false) => {
      if (settled) return;
      settled = true;
      if (!reusable) req.destroy();
      resolve(result);
    };
    const settleOnResponse = (res: IncomingMessage) => settle(responseResult(res));

    req.on('response', (res: IncomingMessage) => {
      response = res;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.byteLength;
        if (read >= maxResponseBytes) settleOnResponse(res);
      });
      res.on('end', () => settle(responseResult(res), true));
      res.on('error', () => settleOnResponse(res));
      res.on('close', () => settleOnResponse(res));
    });
    req.on('error', (error) => settle(response ? responseResult(response) : connectionFailure(error)));
    req.on('close', () => settle(response ? responseResult(response) : connectionFailure(undefined)));
    // Headers in time decide the outcome; a body still trickling at the deadline is cut off.
    void deadline.expired.then(() =>
      settle(response ? responseResult(response) : failed(timeoutMessage(request.timeoutMs))),
    );
    req.end(body);
  });
}

/**
 * What a request trusts without a `ca` option: a `ca` replaces it, so it is listed again. Node 22.15+
 * includes NODE_EXTRA_CA_CERTS in it; older ones have the bundled roots only.
 */
function defaultAuthorities(): readonly string[] {
  return tls.getCACertificates?.('default') ?? tls.rootCertificates;
}

function parseUrl(input: string): URL | string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return 'The webhook URL is not a valid absolute URL.';
  }
  if (url.protocol !== 'https:') return 'The webhook URL must use https.';
  return url;
}

/** Framing and `Host` come from the URL and the body, never from the caller. */
function ownHeadersRemoved(headers: Record<string, string>): Record<string, string> {
  const own = new Set(['host', 'content-length', 'transfer-encoding']);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !own.has(name.toLowerCase())));
}

function responseResult(res: IncomingMessage): Result {
  const statusCode = res.statusCode ?? 0;
  if (statusCode >= 200 && statusCode < 300) return { statusCode, errorMessage: null, succeeded: true };
  if (statusCode >= 300 && statusCode < 400) {
    return { statusCode, errorMessage: `Redirect ${statusCode} not followed`, succeeded: false };
  }
  const reason = printable(res.statusMessage ?? '', 100);
  return { statusCode, errorMessage: `HTTP ${statusCode}${reason ? ` ${reason}` : ''}`, succeeded: false };
}

const connectionErrors: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset or closed before the response',
  EPIPE: 'Connection closed while sending',
  ETIMEDOUT: 'Connection timed out',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Network unreachable',
  ENOTFOUND: 'Host not found',
  EAI_AGAIN: 'Host lookup failed temporarily',
};

/** Certificate verification codes from OpenSSL, and Node's host name check. */
const certificateError = /CERT|UNABLE_TO_|INVALID_CA|INVALID_PURPOSE|HOSTNAME_MISMATCH|PATH_LENGTH/;

/** The code and Node's or OpenSSL's own text: neither ever quotes the request's headers or body. */
function connectionFailure(error: unknown): Result {
  const { code, message, reason } = (error ?? {}) as { code?: unknown; message?: unknown; reason?: unknown };
  const codeText = typeof code === 'string' ? code : undefined;
  const detail = printable(
    typeof reason === 'string' ? reason : typeof message === 'string' ? message : '',
    200,
  );
  let errorMessage: string;
  if (codeText !== undefined && connectionErrors[codeText] !== undefined) {
    errorMessage = `${connectionErrors[codeText]} (${codeText})`;
  } else if (codeText !== undefined && certificateError.test(codeText)) {
    errorMessage = `TLS certificate not accepted (${codeText}): ${detail}`;
  } else if (codeText?.startsWith('ERR_SSL_')) {
    errorMessage = `TLS handshake failed (${codeText}): ${detail}`;
  } else if (codeText !== undefined) {
    errorMessage = `Connection failed (${codeText})${detail ? `: ${detail}` : ''}`;
  } else {
    errorMessage = 'Connection closed before the response';
  }
  return failed(errorMessage);
}

function failed(errorMessage: string): Result {
  return { statusCode: null, errorMessage, succeeded: false };
}

function timeoutMessage(timeoutMs: number): string {
  return `Timed out after ${timeoutMs} ms`;
}

function codeSuffix(error: unknown): string {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? ` (${printable(code, 60)})` : '';
}

/** One line of at most `max` characters, without control characters. */
function printable(text: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const expired = Symbol('expired');

type Deadline = { expired: Promise<typeof expired>; clear: () => void };

/** One timer for the whole attempt; `expired` never settles once cleared. */
function startDeadline(timeoutMs: number): Deadline {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<typeof expired>((resolve) => {
    timer = setTimeout(() => resolve(expired), timeoutMs);
  });
  return { expired: promise, clear: () => clearTimeout(timer) };
}
