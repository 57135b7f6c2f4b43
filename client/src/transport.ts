import { randomUUID } from 'node:crypto';
import { type ErrorCode, MerchantPaymentsConnectionError, MerchantPaymentsError } from './errors.js';
import type { operations } from './generated/openapi.js';
import { type OperationId, routes } from './generated/routes.js';
import { isRetryable, type RetryPolicy, retryAfterSeconds, retryDelayMs } from './retry.js';

/** Options of one call, the last argument of every method. */
export interface RequestOptions {
  /** The Idempotency-Key of a mutating call; a fresh random one when absent. Reused on every retry. */
  idempotencyKey?: string;
  /** Milliseconds one attempt may take before it is abandoned (and retried). */
  timeoutMs?: number;
  /** Retries after the first attempt; overrides the client's. */
  maxRetries?: number;
  /** Abandons the call, its retries included. */
  signal?: AbortSignal;
}

export interface TransportConfig {
  apiKey: string;
  merchantId: string;
  baseUrl: string;
  timeoutMs: number;
  retry: RetryPolicy;
  fetch: typeof fetch;
}

export interface CallArguments {
  path?: Record<string, string>;
  query?: object;
  body?: object;
  /** A public route of the pay link: sent without the API key. */
  anonymous?: boolean;
}

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<O extends OperationId> = operations[O]['responses'];

/** What a call resolves to: its operation's 200 or 201 body. */
export type Success<O extends OperationId> =
  Responses<O> extends { 200: infer Ok }
    ? Json<Ok>
    : Responses<O> extends { 201: infer Created }
      ? Json<Created>
      : never;

/** Its JSON body, without the `merchantId` the client fills in. */
export type Input<O extends OperationId> = WithoutMerchantId<Json<NonNullable<operations[O]['requestBody']>>>;

/** Its query, without the `merchantId` the client fills in. */
export type Query<O extends OperationId> = WithoutMerchantId<
  NonNullable<operations[O]['parameters']['query']>
>;

type WithoutMerchantId<T> = T extends unknown ? Omit<T, 'merchantId'> : never;

const idempotencyKeyPattern = /^[\x21-\x7e]{1,255}$/;

/** Sends the API's requests: one operation per call, with its key, its retries and its errors. */
export class Transport {
  readonly #config: TransportConfig;

  constructor(config: TransportConfig) {
    this.#config = config;
  }

  async call<O extends OperationId>(
    operationId: O,
    args: CallArguments = {},
    options: RequestOptions = {},
  ): Promise<Success<O>> {
    const request = this.#request(operationId, args, options);
    const policy = { ...this.#config.retry, maxRetries: options.maxRetries ?? this.#config.retry.maxRetries };
    for (let retry = 1; ; retry += 1) {
      try {
        return (await this.#attempt(request, options)) as Success<O>;
      } catch (error) {
        const delay =
          retry <= policy.maxRetries && isRetryable(error) ? retryDelayMs(error, retry, policy) : undefined;
        if (delay === undefined || options.signal?.aborted) throw error;
        await abortableSleep(delay, options.signal);
      }
    }
  }

  #request(operationId: OperationId, args: CallArguments, options: RequestOptions) {
    const route = routes[operationId];
    const merchantId = this.#config.merchantId;
    const pathValues: Record<string, string> = {
      ...args.path,
      ...(route.merchantId === 'path' && { merchantId }),
    };
    const path = route.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
      const value = pathValues[name];
      if (value === undefined) throw new TypeError(`${operationId} needs ${name}`);
      return encodeURIComponent(value);
    });
    const query = new URLSearchParams();
    if (route.merchantId === 'query') query.set('merchantId', merchantId);
    for (const [name, value] of Object.entries(args.query ?? {}))
      if (value !== undefined) query.set(name, String(value));
    const search = query.size > 0 ? `?${query}` : '';
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (!args.anonymous) headers.Authorization = `Bearer ${this.#config.apiKey}`;
    if (route.idempotent) headers['Idempotency-Key'] = idempotencyKeyOf(options.idempotencyKey);
    let body: string | null = null;
    if (route.body) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify({ ...args.body, ...(route.merchantId === 'body' && { merchantId }) });
    }
    return { url: `${this.#config.baseUrl}${path}${search}`, method: route.method, headers, body };
  }

  async #attempt(request: PreparedRequest, options: RequestOptions): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.#config.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await this.#config.fetch(request.url, { ...request, signal });
      text = await response.text();
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted)
        throw new MerchantPaymentsConnectionError(
          'timeout',
          `${request.method} ${request.url} took over ${timeoutMs} ms`,
        );
      throw new MerchantPaymentsConnectionError(
        'network',
        `${request.method} ${request.url} failed: ${messageOf(error)}`,
        {
          cause: error,
        },
      );
    }
    return parsed(request, response, text);
  }
}

type PreparedRequest = { url: string; method: string; headers: Record<string, string>; body: string | null };

function parsed(request: PreparedRequest, response: Response, text: string): unknown {
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (response.ok) {
    if (json === undefined)
      throw new MerchantPaymentsConnectionError(
        'invalid_response',
        `${request.method} ${request.url} answered ${response.status} without a JSON body`,
      );
    return json;
  }
  throw new MerchantPaymentsError({
    status: response.status,
    body: errorBodyOf(json, response.status),
    requestId: response.headers.get('request-id') ?? undefined,
    retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')),
  });
}

/** The API's `error`, or one made from the status when something in front of it answered. */
function errorBodyOf(json: unknown, status: number) {
  const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (typeof error?.code === 'string' && typeof error.message === 'string')
    return error as { code: ErrorCode; message: string };
  return { code: codeOfStatus(status), message: `The API answered ${status} without its error body` };
}

function codeOfStatus(status: number): ErrorCode {
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'service_unavailable';
  if (status >= 500) return 'internal_error';
  if (status === 404) return 'not_found';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  return 'bad_request';
}

function idempotencyKeyOf(given: string | undefined): string {
  if (given === undefined) return randomUUID();
  if (!idempotencyKeyPattern.test(given))
    throw new TypeError('idempotencyKey must be 1 to 255 printable ASCII characters, without spaces');
  return given;
}

function messageOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
