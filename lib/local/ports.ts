import { createServer } from 'node:net';

/** Loopback host every local service listens on and every local client connects to. */
export const LOOPBACK_HOST = '127.0.0.1';

/**
 * Asks the OS for a free TCP port by binding port 0 and reading what it chose. The port is released
 * before this resolves, so another process can still take it: callers that launch a server on it
 * must detect "address in use" and pick again.
 */
export function findFreePort(host: string = LOOPBACK_HOST): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : undefined;
      server.close(() => (port === undefined ? reject(new Error('no port assigned')) : resolve(port)));
    });
  });
}

/** True when nothing listens on `host:port` right now (same caveat as `findFreePort`). */
export function isPortFree(port: number, host: string = LOOPBACK_HOST): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(false);
      else reject(error);
    });
    server.listen({ port, host }, () => server.close(() => resolve(true)));
  });
}
