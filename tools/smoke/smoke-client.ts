import { CheckFailure } from './check-failure';

/** One answer of the stage; `body` is the parsed JSON, or undefined when the body was not JSON. */
export interface SmokeResponse {
  readonly status: number;
  readonly body: unknown;
}

export interface SmokeRequestOptions {
  /** The credential sent as `Authorization: Bearer …`; null sends no Authorization header. */
  readonly key: string | null;
  readonly body?: unknown;
  readonly query?: Readonly<Record<string, string | number>>;
  readonly idempotencyKey?: string;
}

export type SmokeRequest = (
  method: string,
  path: string,
  options: SmokeRequestOptions,
) => Promise<SmokeResponse>;

/** API Gateway gives an integration 29 s; an answer later than that will not come. */
const RequestTimeoutMs = 30_000;

/**
 * Requests to the stage at `baseUrl` (ending in `/`): `path` is relative, so a stage path in the
 * base URL (`…/sandbox/`) stays in front of it. A request that gets no answer is a `CheckFailure`
 * saying why in one line.
 */
export function smokeClient(baseUrl: string): SmokeRequest {
  return async (method, path, options) => {
    const url = new URL(path, baseUrl);
    for (const [name, value] of Object.entries(options.query ?? {}))
      url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.key !== null) headers.Authorization = `Bearer ${options.key}`;
    if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(url, {
      method,
      headers,
      signal: AbortSignal.timeout(RequestTimeoutMs),
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    }).catch((error: unknown) => {
      throw new CheckFailure(`${method} ${url.pathname} got no answer: ${networkProblem(error)}`, {
        cause: error,
      });
    });
    const text = await response.text();
    return { status: response.status, body: jsonOrUndefined(text) };
  };
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function networkProblem(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return `no answer within ${RequestTimeoutMs / 1_000} s`;
  }
  const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** One `details` entry of the error shape: where the problem is and what it is. */
export interface ErrorDetail {
  readonly path: string;
  readonly message: string;
}

/** The API's error shape, `{"error":{"code","message","details"?,…}}` (docs/api.html, "Errors"). */
export function errorOf(
  body: unknown,
): { code: string; message: string; details: readonly ErrorDetail[] } | undefined {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)
    ?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string'
    ? { code: error.code, message: error.message, details: detailsOf(error.details) }
    : undefined;
}

/** The entries that are a `path` and a `message` string; anything else in the list is left out. */
function detailsOf(details: unknown): ErrorDetail[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((detail) => {
    const { path, message } = (detail ?? {}) as { path?: unknown; message?: unknown };
    return typeof path === 'string' && typeof message === 'string' ? [{ path, message }] : [];
  });
}

/** A FAIL line names this many details, and counts the rest. */
const listedDetails = 5;

/**
 * An answer in a few words for a FAIL line: the status and, in the error shape, its code, message
 * and the `path: message` of each detail (the first five), which name fields and the service's own
 * wording, never a value. Never the body otherwise, which may hold a signing secret or a pay-link slug.
 */
export function describeResponse(response: SmokeResponse): string {
  const error = errorOf(response.body);
  if (error === undefined) return `${response.status}`;
  const listed = error.details.slice(0, listedDetails).map(({ path, message }) => `${path}: ${message}`);
  const more = error.details.length - listed.length;
  const details = more > 0 ? [...listed, `and ${more} more`] : listed;
  const said = details.length === 0 ? error.message : `${error.message} ${details.join('; ')}`;
  return `${response.status} ${error.code} (${said})`;
}

/** The answer's JSON when the status is `expected`; otherwise a `CheckFailure` naming both. */
export function expectStatus(
  response: SmokeResponse,
  expected: number,
  what: string,
): Record<string, unknown> {
  if (response.status !== expected || typeof response.body !== 'object' || response.body === null) {
    throw new CheckFailure(
      `${what} answered ${describeResponse(response)}, expected ${expected} with a JSON body`,
    );
  }
  return response.body as Record<string, unknown>;
}
