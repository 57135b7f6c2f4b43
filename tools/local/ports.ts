import { once } from 'node:events';
import { createServer } from 'node:net';

/** Loopback host every local service listens on and every local client connects to. */
export const LOOPBACK_HOST = '127.0.0.1';

/**
 * Asks the OS for a free TCP port by binding port 0 and reading what it chose. The port is released
 * before this resolves, so another process can still take it: callers that launch a server on it
 * must detect "address in use" and pick again.
 */
export async function findFreePort(host: string = LOOPBACK_HOST): Promise<number> {
  return (await bindAndRelease(0, host)) as number;
}

/** True when nothing listens on `host:port` right now (same caveat as `findFreePort`). */
export async function isPortFree(port: number, host: string = LOOPBACK_HOST): Promise<boolean> {
  return bindAndRelease(port, host).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') return false;
      throw error;
    },
  );
}

/** Binds `host:port`, closes again and returns the port that was bound. */
async function bindAndRelease(port: number, host: string): Promise<number | undefined> {
  const server = createServer().unref();
  await once(server.listen({ port, host }), 'listening');
  const address = server.address();
  await new Promise((closed) => server.close(closed));
  return typeof address === 'object' && address !== null ? address.port : undefined;
}
