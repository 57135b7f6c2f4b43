import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HostLookup } from '../../../functions/delivery/resolve-target';
import {
  type AttemptOutcome,
  sendWebhook,
  type WebhookRequest,
} from '../../../functions/delivery/send-webhook';
import { createTestCertificates, type TestCertificates } from '../../support/tls-certificates';

type Received = {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  servername: string | false | null;
  body: Buffer;
};

type Receiver = {
  port: number;
  /** TLS handshakes completed, whether or not a request followed. */
  connections: number;
  received: Received[];
};

let certificates: TestCertificates;
const servers: Server[] = [];

beforeAll(async () => {
  certificates = await createTestCertificates(['localhost', 'hooks.example.test', '127.0.0.1']);
});

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.close(resolve);
          server.closeAllConnections();
        }),
    ),
  );
});

/** A local HTTPS receiver that records each request (body read in full) before `respond` runs. */
async function startReceiver(
  respond: (res: ServerResponse, req: IncomingMessage) => void,
): Promise<Receiver> {
  const receiver: Receiver = { port: 0, connections: 0, received: [] };
  const server = createServer(certificates.server, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.received.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        servername: (req.socket as TLSSocket).servername,
        body: Buffer.concat(chunks),
      });
      respond(res, req);
    });
  });
  server.on('secureConnection', () => {
    receiver.connections += 1;
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}

const loopback: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];
const signature = 'v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd';
const body = '{"type":"InvoicePaid","note":"Grüße — 支払い済み 💸"}';

function send(overrides: Partial<WebhookRequest> & Pick<WebhookRequest, 'url'>): Promise<AttemptOutcome> {
  return sendWebhook({
    headers: { 'Content-Type': 'application/json', 'Merchant-Webhook-Signature': signature },
    body,
    timeoutMs: 2000,
    allowLoopback: true,
    lookup: loopback,
    ca: certificates.ca,
    ...overrides,
  });
}

function expectNoSecrets(outcome: AttemptOutcome): void {
  expect(JSON.stringify(outcome)).not.toContain(signature.slice(3, 20));
  expect(JSON.stringify(outcome)).not.toContain('InvoicePaid');
}

describe('sendWebhook', () => {
  it('succeeds on a 200, sending the exact UTF-8 body bytes, the headers and Content-Length', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end('thanks'));
    const outcome = await send({ url: `https://localhost:${receiver.port}/hooks/in?merchant=m_1` });

    expect(outcome).toEqual({
      statusCode: 200,
      durationMs: expect.any(Number),
      errorMessage: null,
      succeeded: true,
    });
    expect(Number.isInteger(outcome.durationMs)).toBe(true);
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/hooks/in?merchant=m_1');
    expect(request?.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(request?.body.toString('utf8')).toBe(body);
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'merchant-webhook-signature': signature,
      'content-length': String(Buffer.byteLength(body, 'utf8')),
    });
    expect(request?.headers['transfer-encoding']).toBeUndefined();
  });

  it('connects to the vetted address while Host and SNI are the URL’s host name', async () => {
    const receiver = await startReceiver((res) => res.writeHead(204).end());
    const lookup = vi.fn(loopback);
    // hooks.example.test resolves nowhere (RFC 6761): only the pinned address can reach the receiver.
    const outcome = await send({ url: `https://hooks.example.test:${receiver.port}/in`, lookup });

    expect(outcome).toMatchObject({ statusCode: 204, succeeded: true });
    expect(lookup).toHaveBeenCalledWith('hooks.example.test');
    expect(receiver.received.map(({ headers, servername }) => ({ host: headers.host, servername }))).toEqual([
      { host: `hooks.example.test:${receiver.port}`, servername: 'hooks.example.test' },
    ]);
  });

  it('sends no SNI to an IP literal host, and Host is that literal', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end());
    const outcome = await send({ url: `https://127.0.0.1:${receiver.port}/in` });

    expect(outcome).toMatchObject({ statusCode: 200, succeeded: true });
    expect(receiver.received.map(({ headers, servername }) => ({ host: headers.host, servername }))).toEqual([
      { host: `127.0.0.1:${receiver.port}`, servername: false },
    ]);
  });

  it('never lets the caller’s headers override Host or the framing', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end());
    await send({
      url: `https://localhost:${receiver.port}/in`,
      headers: { host: 'internal.example', 'content-length': '1', 'Transfer-Encoding': 'chunked' },
    });

    expect(receiver.received[0]?.headers).toMatchObject({
      host: `localhost:${receiver.port}`,
      'content-length': String(Buffer.byteLength(body, 'utf8')),
    });
    expect(receiver.received[0]?.body.toString('utf8')).toBe(body);
  });

  it('reuses the connection for the next attempt to the same target after a short response', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end('ok'));
    const url = `https://localhost:${receiver.port}/reused`;
    expect((await send({ url })).succeeded).toBe(true);
    expect((await send({ url })).succeeded).toBe(true);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.connections).toBe(1);
  });

  it('keeps the connections of a batch of 10 concurrent attempts open for the next batches', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end('ok'));
    const url = `https://localhost:${receiver.port}/batches`;
    for (let batch = 0; batch < 3; batch += 1) {
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => send({ url })));
      expect(outcomes.every((outcome) => outcome.succeeded)).toBe(true);
    }
    expect(receiver.received).toHaveLength(30);
    expect(receiver.connections).toBeLessThanOrEqual(10);
  });

  it('does not reuse a connection whose response was longer than it reads', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end('x'.repeat(64 * 1024)));
    const url = `https://localhost:${receiver.port}/long`;
    await send({ url });
    await send({ url });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.connections).toBe(2);
  });

  it('fails on a 500 with the status and its reason phrase', async () => {
    const receiver = await startReceiver((res) => res.writeHead(500).end('boom'));
    const outcome = await send({ url: `https://localhost:${receiver.port}/in` });

    expect(outcome).toEqual({
      statusCode: 500,
      durationMs: expect.any(Number),
      errorMessage: 'HTTP 500 Internal Server Error',
      succeeded: false,
    });
  });

  it('fails on a 302 and never follows its Location', async () => {
    const elsewhere = await startReceiver((res) => res.writeHead(200).end());
    const receiver = await startReceiver((res) =>
      res.writeHead(302, { location: `https://localhost:${elsewhere.port}/stolen` }).end(),
    );
    const outcome = await send({ url: `https://localhost:${receiver.port}/in` });

    expect(outcome).toMatchObject({
      statusCode: 302,
      errorMessage: 'Redirect 302 not followed',
      succeeded: false,
    });
    expect(receiver.received).toHaveLength(1);
    expect(elsewhere.connections).toBe(0);
    expect(elsewhere.received).toEqual([]);
  });

  it('times out a receiver that never answers, closing the socket', async () => {
    let socketClosed = false;
    const receiver = await startReceiver((_res, req) =>
      req.socket.on('close', () => {
        socketClosed = true;
      }),
    );
    const outcome = await send({ url: `https://localhost:${receiver.port}/in`, timeoutMs: 300 });

    expect(outcome).toMatchObject({
      statusCode: null,
      errorMessage: 'Timed out after 300 ms',
      succeeded: false,
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(300);
    expect(outcome.durationMs).toBeLessThan(2000);
    await vi.waitFor(() => expect(socketClosed).toBe(true));
  });

  it('counts the TLS handshake in the timeout (a server that accepts and stays silent)', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const outcome = await send({ url: `https://localhost:${port}/in`, timeoutMs: 300 });
      expect(outcome).toMatchObject({ statusCode: null, errorMessage: 'Timed out after 300 ms' });
      expect(outcome.durationMs).toBeGreaterThanOrEqual(300);
      expect(outcome.durationMs).toBeLessThan(2000);
    } finally {
      await new Promise((resolve) => {
        silent.close(resolve);
        for (const socket of sockets) socket.destroy();
      });
    }
  });

  it('counts a slow DNS lookup in the timeout', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end());
    const stuck: HostLookup = () => new Promise(() => {});
    const outcome = await send({
      url: `https://localhost:${receiver.port}/in`,
      timeoutMs: 300,
      lookup: stuck,
    });

    expect(outcome).toMatchObject({ statusCode: null, errorMessage: 'Timed out after 300 ms' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(300);
    expect(outcome.durationMs).toBeLessThan(2000);
    expect(receiver.connections).toBe(0);
  });

  it('stops reading an endless 2xx body after a few KB instead of waiting for it', async () => {
    const total = 10 * 1024 * 1024;
    let sent = 0;
    let closed = false;
    const receiver = await startReceiver((res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(total) });
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      const timer = setInterval(() => {
        if (res.destroyed || sent >= total) return clearInterval(timer);
        res.write(chunk);
        sent += chunk.byteLength;
      }, 10);
      res.on('close', () => {
        closed = true;
        clearInterval(timer);
      });
    });
    const outcome = await send({ url: `https://localhost:${receiver.port}/in` });

    expect(outcome).toMatchObject({ statusCode: 200, errorMessage: null, succeeded: true });
    // The full body would take ~6.4 s at this pace.
    expect(outcome.durationMs).toBeLessThan(1000);
    await vi.waitFor(() => expect(closed).toBe(true));
    expect(sent).toBeLessThan(256 * 1024);
  });

  it('fails with ECONNREFUSED on a closed port', async () => {
    const probe = createTcpServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));

    const outcome = await send({ url: `https://localhost:${port}/in` });
    expect(outcome).toMatchObject({ statusCode: null, succeeded: false });
    expect(outcome.errorMessage).toBe('Connection refused (ECONNREFUSED)');
    expectNoSecrets(outcome);
  });

  it('fails with a TLS error when the certificate is not trusted, sending nothing', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end());
    const outcome = await send({ url: `https://localhost:${receiver.port}/in`, ca: undefined });

    expect(outcome).toMatchObject({ statusCode: null, succeeded: false });
    expect(outcome.errorMessage).toMatch(
      /^TLS certificate not accepted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): /,
    );
    expect(receiver.received).toEqual([]);
    expectNoSecrets(outcome);
  });

  it('fails with a TLS error when the certificate is for another host name', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end());
    const outcome = await send({ url: `https://other.example.test:${receiver.port}/in` });

    expect(outcome.errorMessage).toMatch(/^TLS certificate not accepted \(ERR_TLS_CERT_ALTNAME_INVALID\): /);
    expect(receiver.received).toEqual([]);
  });

  it('refuses a loopback destination without allowLoopback, without connecting', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end());
    const outcome = await send({
      url: `https://localhost:${receiver.port}/in`,
      allowLoopback: false,
      lookup: undefined,
    });

    expect(outcome).toMatchObject({ statusCode: null, succeeded: false });
    expect(outcome.errorMessage).toMatch(
      /resolves to .*a loopback address; only public addresses are accepted\.$/,
    );
    expect(receiver.connections).toBe(0);
  });

  it('refuses a public-looking name that resolves to a private address', async () => {
    const lookup = vi.fn<HostLookup>(async () => [{ address: '10.0.0.7', family: 4 }]);
    const outcome = await send({ url: 'https://hooks.example.com/in', allowLoopback: false, lookup });

    expect(outcome).toEqual({
      statusCode: null,
      durationMs: expect.any(Number),
      errorMessage:
        'The host hooks.example.com resolves to 10.0.0.7, a private address; only public addresses are accepted.',
      succeeded: false,
    });
    expect(lookup).toHaveBeenCalledWith('hooks.example.com');
  });

  it('refuses a URL that is not https, or not a URL, without resolving it', async () => {
    const lookup = vi.fn(loopback);
    expect(await send({ url: 'http://localhost/in', lookup })).toMatchObject({
      statusCode: null,
      errorMessage: 'The webhook URL must use https.',
      succeeded: false,
    });
    expect(await send({ url: 'hooks.example.com/in', lookup })).toMatchObject({
      statusCode: null,
      errorMessage: 'The webhook URL is not a valid absolute URL.',
      succeeded: false,
    });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('fails without quoting a header value Node refuses to send', async () => {
    const receiver = await startReceiver((res) => res.writeHead(200).end());
    const outcome = await send({
      url: `https://localhost:${receiver.port}/in`,
      headers: { 'Merchant-Webhook-Signature': `${signature}\r\nX-Injected: 1` },
    });

    expect(outcome).toMatchObject({ statusCode: null, succeeded: false });
    expect(outcome.errorMessage).toBe('The request could not be built (ERR_INVALID_CHAR).');
    expect(receiver.connections).toBe(0);
  });

  it('measures durationMs in whole milliseconds on the given clock', async () => {
    const ticks = [1000, 1042.6];
    const now = () => ticks.shift() ?? 0;
    const outcome = await send({ url: 'ftp://localhost/in', now });
    expect(outcome.durationMs).toBe(43);
  });
});
