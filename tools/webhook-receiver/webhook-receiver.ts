import { appendFile, readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { type VerifyWebhookResult, verifyWebhook } from '../../docs/receiving-webhooks/verify-webhook';
import { closeFiles, PrivateMode, privateDir } from '../local/private-files';
import { createLocalCa } from './local-ca';
import { webhookReceiverDir } from './webhook-receiver-dir';

/** Where the receiver keeps its certificates and files unless told otherwise: `.local/webhook-receiver/`. */
const defaultWebhookReceiverDir = webhookReceiverDir({});

/** The files of the receiver's folder besides the CA's (`LocalCaFiles`). */
export const WebhookReceiverFiles = {
  /** `{"url","caCertPath"}` of the running receiver; removed by `close()`. */
  info: 'receiver.json',
  /** The endpoints' `whsec_…` signing secrets, one per line, written by the developer. */
  secrets: 'secrets',
  /** One JSON line per delivery received, verified or not. */
  received: 'received.ndjson',
} as const;

/** A delivery body larger than this is refused unread; ours are a few kilobytes. */
const MaxBodyBytes = 1024 * 1024;

/** Its own CA lasts a month, so a runtime given it through NODE_EXTRA_CA_CERTS keeps trusting it across restarts. */
const OwnCaValidityDays = 30;

const ListenAttempts = 5;

export interface WebhookReceiverTls {
  readonly keyPath: string;
  readonly certPath: string;
  /** The CA that signed `certPath`, written to receiver.json when known. */
  readonly caCertPath?: string;
}

export interface WebhookReceiverOptions {
  /** Default 127.0.0.1 (then ::1 with the same port too, since `localhost` may resolve to either). */
  readonly host?: string;
  /** Default 4443; 0 picks a free port. */
  readonly port?: number;
  /** Default `.local/webhook-receiver/` at the repo root. */
  readonly dir?: string;
  /** A key and certificate to serve instead of the receiver's own CA and `localhost` certificate. */
  readonly tls?: WebhookReceiverTls;
  /** Where the one-line summaries go; default stdout. */
  readonly log?: (line: string) => void;
}

/** What receiver.json holds. */
export interface WebhookReceiverInfo {
  readonly url: string;
  readonly caCertPath: string | null;
}

export interface WebhookReceiver extends WebhookReceiverInfo {
  readonly port: number;
  readonly dir: string;
  /** Stops listening, drops open connections and removes receiver.json. */
  close(): Promise<void>;
}

/** One line of received.ndjson. */
type ReceivedRecord =
  | { receivedAt: string; id: string; type: string; verified: true; data: unknown }
  | { receivedAt: string; id: string | null; type: string | null; verified: false; reason: string };

/**
 * A local HTTPS endpoint for webhook deliveries, for trying the service on one machine. Every POST
 * is checked with the published verifier (docs/receiving-webhooks.md) against each secret in
 * `dir/secrets`, read again on every request so a secret appended while it runs counts at once.
 * Verified → 200; anything else → 401. Either way one line goes to `dir/received.ndjson` and one to
 * `log`; neither ever holds a secret or a signature.
 */
export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const dir = resolve(options.dir ?? defaultWebhookReceiverDir);
  const log = options.log ?? ((line: string) => console.log(line));
  await privateDir(dir);
  // Made here, empty, so the README's `>> "$HOOKS/secrets"` appends to a file of this user only
  // instead of having the shell create one under its umask.
  await writeFile(join(dir, WebhookReceiverFiles.secrets), '', { flag: 'a', mode: PrivateMode.file });
  await closeFiles(dir, [WebhookReceiverFiles.secrets, WebhookReceiverFiles.received]);
  const { key, cert, caCertPath } = await serverCredentials(dir, options.tls);
  const record = receivedLog(join(dir, WebhookReceiverFiles.received));
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    answer(req, res, { dir, log, record }).catch((error: unknown) => {
      log(`failed to handle a request: ${(error as Error).message}`);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  };
  const { port, servers } = await listenAll(
    () => createServer({ key, cert }, onRequest),
    options.host ?? '127.0.0.1',
    options.port ?? 4443,
  );
  const info: WebhookReceiverInfo = { url: `https://localhost:${port}`, caCertPath };
  const infoFile = join(dir, WebhookReceiverFiles.info);
  // Written whole and renamed into place, so a script polling for it never reads half a file.
  await writeFile(`${infoFile}.tmp`, `${JSON.stringify(info, null, 2)}\n`, { mode: PrivateMode.file });
  await rename(`${infoFile}.tmp`, infoFile);
  await closeFiles(dir, [WebhookReceiverFiles.info]);
  let closing: Promise<void> | undefined;
  const close = async () => {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise((done) => {
            server.close(done);
            server.closeAllConnections();
          }),
      ),
    );
    await record.flushed();
    await rm(infoFile, { force: true });
  };
  return { ...info, port, dir, close: () => (closing ??= close()) };
}

/**
 * Appends to received.ndjson one at a time, so concurrent deliveries never interleave within a
 * line; a failed append fails its own request only.
 */
function receivedLog(file: string) {
  let writes = Promise.resolve();
  const record = (entry: ReceivedRecord) => {
    const appended = writes.then(() =>
      appendFile(file, `${JSON.stringify(entry)}\n`, { mode: PrivateMode.file }),
    );
    writes = appended.catch(() => undefined);
    return appended;
  };
  return Object.assign(record, { flushed: () => writes });
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  { dir, log, record }: { dir: string; log: (line: string) => void; record: ReturnType<typeof receivedLog> },
): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const receivedAt = new Date().toISOString();
  const rawBody = await readBody(req);
  if (rawBody === undefined) {
    await record({ receivedAt, id: null, type: null, verified: false, reason: 'body_too_large' });
    res.writeHead(413).end();
    log(`rejected a delivery: body over ${MaxBodyBytes} bytes (413)`);
    return;
  }
  const result = verifyAgainstAll(await readSecrets(dir), req, rawBody);
  if (result.ok) {
    const delivery = JSON.parse(rawBody.toString('utf8')) as { id: string; type: string; data: unknown };
    await record({ receivedAt, id: delivery.id, type: delivery.type, verified: true, data: delivery.data });
    res.writeHead(200).end();
    log(`received ${delivery.type} ${delivery.id}`);
    return;
  }
  const { id, type } = unverifiedLabels(req, rawBody);
  await record({ receivedAt, id, type, verified: false, reason: result.reason });
  res.writeHead(401).end();
  log(`rejected ${type ?? 'a delivery'} ${id ?? '(no id)'}: ${result.reason} (401)`);
}

async function serverCredentials(
  dir: string,
  tls: WebhookReceiverTls | undefined,
): Promise<{ key: string; cert: string; caCertPath: string | null }> {
  if (tls !== undefined) {
    const [key, cert] = await Promise.all([readFile(tls.keyPath, 'utf8'), readFile(tls.certPath, 'utf8')]);
    return { key, cert, caCertPath: tls.caCertPath === undefined ? null : resolve(tls.caCertPath) };
  }
  const ca = await createLocalCa(dir, {
    validityDays: OwnCaValidityDays,
    caName: 'merchant-payments webhook-receiver CA',
  });
  return { key: ca.serverKeyPem, cert: ca.serverCertPem, caCertPath: ca.caCertPath };
}

/** The `whsec_…` lines of `dir/secrets`; none when the file does not exist yet. */
async function readSecrets(dir: string): Promise<string[]> {
  const text = await readFile(join(dir, WebhookReceiverFiles.secrets), 'utf8').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  });
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('whsec_'));
}

/**
 * Accepted when any secret verifies it. A refusal reports the most telling reason: a stale or
 * future timestamp means a secret did match, so it wins over a plain mismatch.
 */
function verifyAgainstAll(
  secrets: readonly string[],
  req: IncomingMessage,
  rawBody: Buffer,
): VerifyWebhookResult | { ok: false; reason: 'no_secret' } {
  if (secrets.length === 0) return { ok: false, reason: 'no_secret' };
  const results = secrets.map((secret) => verifyWebhook({ secret, headers: req.headers, rawBody }));
  return (
    results.find((result) => result.ok) ??
    results.find((result) => !result.ok && result.reason !== 'signature_mismatch') ??
    results[0] ?? { ok: false, reason: 'no_secret' }
  );
}

/**
 * The id and type of a refused delivery, for the developer reading the log only: taken from an
 * unverified request, so kept to plain identifier characters and never acted on.
 */
function unverifiedLabels(req: IncomingMessage, rawBody: Buffer): { id: string | null; type: string | null } {
  const plain = (value: unknown) =>
    typeof value === 'string' && /^[\w.-]{1,100}$/.test(value) ? value : null;
  let type: unknown;
  try {
    type = (JSON.parse(rawBody.toString('utf8')) as { type?: unknown }).type;
  } catch {
    type = undefined;
  }
  return { id: plain(req.headers['merchant-webhook-id']), type: plain(type) };
}

/**
 * The raw body, or undefined when it is over `MaxBodyBytes`: the rest is then read and dropped, so
 * memory stays bounded and the sender still gets an answer.
 */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MaxBodyBytes) chunks.push(chunk);
    });
    req.on('end', () => done(size > MaxBodyBytes ? undefined : Buffer.concat(chunks)));
    req.on('close', () => {
      if (!req.complete) fail(new Error('the sender closed the connection before the body ended'));
    });
    req.on('error', fail);
  });
}

/**
 * Listens on `host`; for the default 127.0.0.1 also on ::1 with the same port, because the runtime
 * connects to the first address `localhost` resolves to, which is ::1 on many systems. With port 0
 * a port taken on ::1 means starting over on a fresh one; a host without IPv6 is served on IPv4 alone.
 */
async function listenAll(
  create: () => Server,
  host: string,
  port: number,
): Promise<{ port: number; servers: Server[] }> {
  for (let attempt = 1; ; attempt += 1) {
    const first = create();
    await listen(first, port, host);
    const bound = (first.address() as AddressInfo).port;
    if (host !== '127.0.0.1') return { port: bound, servers: [first] };
    const second = create();
    try {
      await listen(second, bound, '::1');
      return { port: bound, servers: [first, second] };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT') return { port: bound, servers: [first] };
      await new Promise((done) => first.close(done));
      if (code !== 'EADDRINUSE' || port !== 0 || attempt >= ListenAttempts) throw error;
    }
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen({ port, host }, () => {
      server.off('error', fail);
      done();
    });
  });
}
