import { Agent, request } from 'node:http';
import type { ApiClient } from '../../test/support/local-runtime';

/**
 * The API client of the latency loads: Node's HTTP client over `connections` kept-alive sockets, as
 * a load generator holds them, so the client's own cost per request stays small beside the
 * route's. (`fetch` costs this process several times as much per request, and the loads share
 * its one thread with the gateway they measure.)
 */
export function keepAliveClient(baseUrl: string, apiKey: string, connections: number): ApiClient {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  return (method, path, options = {}) =>
    new Promise((resolve, reject) => {
      const url = new URL(path, baseUrl);
      for (const [name, value] of Object.entries(options.query ?? {})) {
        url.searchParams.set(name, String(value));
      }
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      const headers: Record<string, string> = {
        Authorization: `Bearer ${apiKey}`,
        ...(body === undefined
          ? {}
          : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }),
        ...(options.idempotencyKey === undefined ? {} : { 'Idempotency-Key': options.idempotencyKey }),
      };
      const outgoing = request(url, { method, headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (typeof value === 'string') responseHeaders.set(name, value);
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: responseHeaders,
            body: text === '' ? undefined : JSON.parse(text),
          });
        });
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
}
