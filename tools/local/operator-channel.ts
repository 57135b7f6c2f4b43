import { once } from 'node:events';
import { chmod, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';

/** What the running runtime offers the admin CLI's `--local`: dead letters, their redrive, a reconcile. */
export interface OperatorOperations {
  deadLetterCount(): number;
  redriveDeadLetters(): number;
  reconcileNow(): Promise<{ requeued: number }>;
}

/** The routes of the channel, shared by the server and the CLI's client. */
export const OperatorRoutes = {
  deadLetters: { method: 'GET', path: '/dead-letters' },
  redrive: { method: 'POST', path: '/dead-letters/redrive' },
  reconcile: { method: 'POST', path: '/reconcile' },
} as const;
export type OperatorRoute = (typeof OperatorRoutes)[keyof typeof OperatorRoutes];

/** The longest socket path the kernel takes (`sun_path` holds 108 bytes with the terminating NUL). */
export const MaxSocketPathBytes = 107;

/**
 * The operator socket of the runtime whose state folder is `stateDir`. Too long a path is refused
 * in one line, as `listen` and `connect` would otherwise fail with a bare EINVAL or truncate it.
 */
export function operatorSocketPath(stateDir: string): string {
  const path = join(stateDir, 'operator.sock');
  if (Buffer.byteLength(path) > MaxSocketPathBytes) {
    throw new Error(
      `the operator socket path ${path} is longer than ${MaxSocketPathBytes} bytes: set LOCAL_STATE_DIR to a shorter folder`,
    );
  }
  return path;
}

export class OperatorChannelError extends Error {
  override name = 'OperatorChannelError';
}

/**
 * An HTTP server on a Unix socket in the state folder: file modes (folder and socket) decide who may
 * use it, so it needs no token and no port. A socket left by a killed runtime is removed; one that
 * still answers belongs to a running runtime and stops this one.
 */
export async function startOperatorChannel(options: {
  stateDir: string;
  operations: OperatorOperations;
}): Promise<{ socketPath: string; close(): Promise<void> }> {
  const socketPath = operatorSocketPath(options.stateDir);
  await assertNoRuntimeIn(options.stateDir);
  await rm(socketPath, { force: true });
  const server = createServer((request, response) => {
    respond(request, response, options.operations).catch((error: unknown) => {
      send(response, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  await once(server.listen(socketPath), 'listening');
  await chmod(socketPath, 0o600);
  return {
    socketPath,
    close: () => once(server.close(), 'close').then(() => rm(socketPath, { force: true })),
  };
}

async function respond(request: IncomingMessage, response: ServerResponse, operations: OperatorOperations) {
  const route = `${request.method} ${request.url}`;
  request.resume();
  const is = ({ method, path }: OperatorRoute) => route === `${method} ${path}`;
  if (is(OperatorRoutes.deadLetters)) send(response, 200, { count: operations.deadLetterCount() });
  else if (is(OperatorRoutes.redrive)) send(response, 200, { moved: operations.redriveDeadLetters() });
  else if (is(OperatorRoutes.reconcile)) send(response, 200, await operations.reconcileNow());
  else send(response, 404, { error: `no operator route ${route}` });
}

function send(response: ServerResponse, status: number, body: object): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Throws when a live runtime uses `stateDir` (its socket answers): a second would share its data. */
export async function assertNoRuntimeIn(stateDir: string): Promise<void> {
  const socket = connect(operatorSocketPath(stateDir));
  const answers = await once(socket, 'connect').then(
    () => true,
    () => false,
  );
  socket.destroy();
  if (!answers) return;
  throw new OperatorChannelError(
    `another npm start is running with the state folder ${stateDir} (its operator socket answers): ` +
      'stop it first, or give this one its own LOCAL_STATE_DIR',
  );
}
