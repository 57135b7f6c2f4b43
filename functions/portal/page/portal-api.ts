import { apiUrl } from './portal-location';

/**
 * The portal's calls to the service's own routes, authorized by the portal session's bearer token,
 * same origin, relative to the stage's base path (docs/decisions/merchant-portal-page.md).
 */

/** An answer of the service's error shape `{"error":{code,message,requestId}}`. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A 401 mid-session: the session expired, was revoked, or its API key was. */
export class SessionEndedError extends Error {
  override readonly name = 'SessionEndedError';
}

export type Query = Readonly<Record<string, string | undefined>>;

export interface PortalApi {
  get<T>(path: string, query?: Query): Promise<T>;
  /** A mutating call: JSON body and a fresh Idempotency-Key. */
  send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => undefined)) as
    | { error?: { code?: unknown; message?: unknown; details?: unknown } }
    | undefined;
  const code = typeof body?.error?.code === 'string' ? body.error.code : 'unexpected_response';
  const message =
    typeof body?.error?.message === 'string'
      ? body.error.message
      : `The service answered ${response.status}.`;
  const details = Array.isArray(body?.error?.details)
    ? (body.error.details as { path?: unknown; message?: unknown }[])
    : [];
  const problems = details.map((detail) => `${String(detail.path ?? '')}: ${String(detail.message ?? '')}`);
  return new ApiError(response.status, code, [message, ...problems].join(' '));
}

/** Reads a JSON answer, or throws what it means. */
export async function readAnswer<T>(response: Response): Promise<T> {
  if (response.ok) return (await response.json()) as T;
  throw await errorOf(response);
}

export function portalApi(basePath: string, sessionToken: string, onSessionEnded: () => void): PortalApi {
  const call = async <T>(method: string, url: string, init: RequestInit): Promise<T> => {
    const headers = new Headers(init.headers);
    headers.set('Authorization', `Bearer ${sessionToken}`);
    const response = await fetch(url, { ...init, method, headers, credentials: 'omit', cache: 'no-store' });
    if (response.status === 401) {
      onSessionEnded();
      throw new SessionEndedError('The portal session has ended.');
    }
    return readAnswer<T>(response);
  };
  return {
    get: (path, query) => call('GET', apiUrl(basePath, path, query), {}),
    send: (method, path, body) =>
      call(method, apiUrl(basePath, path), {
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
  };
}
