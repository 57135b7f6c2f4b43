import type { Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import type { Principal } from '../domain/principal';
import type { ShardHistory } from '../domain/shard-history';
import type { RouteDefinition } from '../route-definition';
import type { IdempotencyContext, StoredResponse } from '../store/idempotency';

type Parsed<T> = T extends z.ZodMiniType ? z.output<T> : undefined;

/** What a handler receives once every middleware has accepted the request. */
export interface ApiRequest<R extends RouteDefinition> {
  readonly route: R;
  readonly requestId: string;
  /** The merchant of the API key, already checked against any merchantId the request names. */
  readonly merchantId: string;
  /**
   * The merchant's write shard history, from the authorizer's answer: where new payments, invoices
   * and payouts go, and which partitions a list reads. Empty on public routes and for a merchant
   * with one shard.
   */
  readonly merchantShards: ShardHistory;
  /** Undefined on public routes. */
  readonly principal: RequestPrincipal | undefined;
  /** Where the API is served, as the caller reached it: `https://host/stage` (no trailing slash). */
  readonly baseUrl: string;
  readonly now: Date;
  readonly params: Parsed<R['request']['params']>;
  readonly query: Parsed<R['request']['query']>;
  readonly body: Parsed<R['request']['body']>;
  /** Present on every mutating route: the handler's write must carry the idempotency record. */
  readonly idempotency: R['method'] extends 'GET' ? undefined : IdempotencyContext;
  /** The request as sent, for what must be checked on its exact bytes (a processor's signature). */
  readonly raw: RawRequest;
}

export interface RawRequest {
  /** The body's bytes exactly as received; undefined without a body. */
  readonly body: Buffer | undefined;
  /** A header's value, its name in any case. */
  header(name: string): string | undefined;
}

export type ApiResponse = StoredResponse;

/** Who the authorizer let in (docs/decisions/merchant-portal-sessions.md). */
export type RequestPrincipal = Principal;

/** Middleware state, kept on the Lambda context object that middy hands to every step. */
export interface ApiState {
  route: RouteDefinition;
  requestId: string;
  authorizedMerchantId: string | undefined;
  principal: RequestPrincipal | undefined;
  baseUrl: string;
  merchantShards: ShardHistory;
  now: Date;
  startedAt: number;
  rawBody: unknown;
  /** The body's bytes as received (decoded from base64 when API Gateway encoded them). */
  bodyBytes: Buffer | undefined;
  params: unknown;
  query: unknown;
  body: unknown;
  idempotency: IdempotencyContext | undefined;
}

export type ApiContext = Context & { api?: ApiState };

export function apiState(context: Context): ApiState {
  const state = (context as ApiContext).api;
  if (state === undefined) throw new Error('API middleware state is missing: requestContext must run first');
  return state;
}
