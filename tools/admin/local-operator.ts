import { request } from 'node:http';
import { type OperatorRoute, operatorSocketPath } from '../local/operator-channel';
import { AdminError } from './operations';

/** What the CLI says when no runtime answers on the state folder's operator socket. */
export const noLocalRuntimeMessage = 'no local runtime is running: run npm start first';

const notRunningCodes = new Set(['ENOENT', 'ECONNREFUSED']);

/**
 * One call to the operator channel of the runtime that keeps its state in `stateDir`; resolves
 * with the JSON it answers. A missing or dead socket means no runtime runs there.
 */
export async function callLocalOperator(stateDir: string, route: OperatorRoute): Promise<object> {
  let socketPath: string;
  try {
    socketPath = operatorSocketPath(stateDir);
  } catch (error) {
    throw new AdminError((error as Error).message, { cause: error });
  }
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const call = request({ socketPath, method: route.method, path: route.path }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: body }));
      response.on('error', reject);
    });
    call.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== undefined && notRunningCodes.has(error.code)) {
        reject(new AdminError(noLocalRuntimeMessage, { cause: error }));
      } else reject(error);
    });
    call.end();
  });
  const body = parsed(text);
  if (status !== 200) {
    const reason = typeof body?.error === 'string' ? body.error : `status ${status}`;
    throw new AdminError(`the local runtime refused ${route.method} ${route.path}: ${reason}`);
  }
  if (body === undefined)
    throw new AdminError(`the local runtime answered ${route.path} with no JSON object`);
  return body;
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
