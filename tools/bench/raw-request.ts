import { Agent, request } from 'node:http';
import { newKey } from '../../test/support/local-runtime';

/** What a raw request got back, and how long the whole answer took to arrive. */
export interface RawAnswer {
  readonly status: number;
  readonly bytes: number;
  readonly ms: number;
}

export type RawPost = (path: string, body: string) => Promise<RawAnswer>;

/**
 * POSTs a body sent as it is (any text, however hostile) with the API key and a new
 * Idempotency-Key, over one kept-alive socket; times it from the request to the answer's last byte.
 */
export function rawPoster(baseUrl: string, apiKey: string): RawPost {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, maxFreeSockets: 1 });
  return (path, body) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const headers = {
        Authorization: `Bearer ${apiKey}`,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
        'Idempotency-Key': newKey(),
      };
      const outgoing = request(new URL(path, baseUrl), { method: 'POST', headers, agent }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on('error', reject);
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, bytes, ms: performance.now() - started }),
        );
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
}
