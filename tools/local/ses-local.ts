import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import * as sesServer from 'aws-ses-v2-local';
import { isPortFree, LOOPBACK_HOST } from './ports';

/**
 * The local runtime's mail inbox: `aws-ses-v2-local`, a local SES v2 endpoint, in this process on
 * loopback. Every email the local mailer sends goes through the real SDK to it; its page (`/`)
 * shows them and `GET /store` lists them as JSON.
 */
export interface SesLocal {
  /** Where the SES client sends: the inbox's own address. */
  readonly endpoint: string;
  /** The inbox page, printed by `npm start`. */
  readonly inboxUrl: string;
  stop(): Promise<void>;
}

/**
 * The package's server function: its CommonJS `exports.default`, which Node's loader hands over as
 * the namespace's `default` or, through tsx, as that namespace's `default` again.
 */
function serverFunction(): typeof sesServer.default {
  const exported = sesServer.default as typeof sesServer.default | { default: typeof sesServer.default };
  return typeof exported === 'function' ? exported : exported.default;
}

export async function startSesLocal(options: { port?: number } = {}): Promise<SesLocal> {
  const port = options.port ?? 0;
  // The package's server never reports a failed listen: a taken port is found first.
  if (port !== 0 && !(await isPortFree(port, LOOPBACK_HOST))) {
    throw new Error(
      `port ${port} on ${LOOPBACK_HOST} is in use (another npm start?): stop what listens there, or set MAIL_INBOX_PORT to a free port (0 picks one)`,
    );
  }
  const server: Server = await serverFunction()({ host: LOOPBACK_HOST, port });
  const endpoint = `http://${LOOPBACK_HOST}:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    inboxUrl: `${endpoint}/`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}

/** An SES client of the local inbox: it asks for a signature of any kind, so one is made up. */
export function sesLocalClient(endpoint: string): SESv2Client {
  return new SESv2Client({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}
