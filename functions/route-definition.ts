import type * as z from 'zod/mini';
import type { Stage } from './config';

// The shape of a route and the rules read from it. It declares no route, so the middleware, the
// stack and the local gateway import it without pulling any resource's schemas into a bundle.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Where a route finds the merchantId it acts for (docs/decisions/merchant-scope-and-validation-order.md);
 * `none` only for public routes, which act for whichever merchant the pay-link slug leads to.
 */
export type MerchantScope = 'path' | 'query' | 'body' | 'none';

export interface RouteDefinition {
  /** Unique, camelCase; names the Lambda function and the OpenAPI operation. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** API Gateway resource path, e.g. `/catalog/products/{productId}`. */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /** Module under `functions/` exporting `handler`. */
  readonly handler: string;
  readonly merchantScope: MerchantScope;
  readonly request: {
    readonly params?: z.ZodMiniObject;
    readonly query?: z.ZodMiniType;
    readonly body?: z.ZodMiniType;
  };
  readonly successStatus: 200 | 201;
  readonly response: z.ZodMiniType;
  /** Seals or opens webhook signing secrets: gets the secrets key and kms:Encrypt/Decrypt on it. */
  readonly usesSecretsKey?: boolean;
  /** The stages that serve the route; absent: every stage. Elsewhere it does not exist (404). */
  readonly stages?: readonly Stage[];
  /** Function timeout; API Gateway waits at most 29 s for any integration. */
  readonly timeoutSeconds?: number;
  /**
   * `public`: no API key; the hosted pay page and the routes it calls (docs/decisions/hosted-pay-page.md),
   * and the merchant portal's page and assets (docs/decisions/merchant-portal-page.md).
   * They are rate-limited per client address, by the web ACL in AWS and by the local gateway.
   */
  readonly access?: 'public';
  /** A POST that changes nothing (it carries a secret in its body rather than its URL): no Idempotency-Key. */
  readonly readOnly?: true;
  /**
   * Calls the payment processor before it writes: 503 where none is wired, and a retry during the
   * call gets 409 `idempotency_in_progress` (docs/decisions/calling-the-processor-without-charging-twice.md).
   */
  readonly callsProcessor?: true;
  /**
   * A 429 of the route's own, beyond the per-address limit of the public routes: when it answers
   * it (for the API reference). That 429 carries a Retry-After header.
   */
  readonly ownRateLimit?: string;
  /**
   * Acts only on a webhook endpoint whose latest attempt succeeded within the hour, and answers 409
   * `endpoint_unhealthy` otherwise (docs/decisions/recovery-needs-an-endpoint-that-answers.md).
   */
  readonly needsAnsweringEndpoint?: true;
  /**
   * The least portal-session scope that may call the route (docs/decisions/merchant-portal-sessions.md);
   * absent: a portal session's bearer gets 403 here, only an API key is let in.
   */
  readonly portal?: 'read' | 'manage';
  /**
   * The public exchange of a portal link: it writes (the link opens once) but takes no Idempotency-Key,
   * since a replay would hand out the session's bearer a second time. Answers 410 for a spent link.
   */
  readonly opensPortalLink?: true;
  /**
   * A payment processor's webhook (docs/processor.md#stripes-events-in): it writes, but takes no
   * Idempotency-Key; the processor's signature on the raw body vouches for the request and the
   * processor's event id de-duplicates it.
   */
  readonly signedByProcessor?: 'stripe';
  /** `none`: the handler never touches the table, so its function gets no table access or name. */
  readonly tableAccess?: 'none';
  /**
   * The success response's media type; absent: JSON. A list: the route serves static files of
   * each of those types by name (the portal's script and stylesheet).
   */
  readonly contentType?: PageMediaType | readonly PageMediaType[];
  /** A route that is not JSON but answers 404 `not_found` for a name it does not serve. */
  readonly answersNotFound?: true;
}

/** What a page route serves besides JSON: a document, a script, a stylesheet. */
export type PageMediaType = 'text/html' | 'text/javascript' | 'text/css';

/** The timeout of every route that does not set its own. */
export const defaultRouteTimeoutSeconds = 10;

/**
 * Routes that change state require an Idempotency-Key (docs/architecture.md#conventions-for-every-endpoint)
 * and may write the table.
 */
export function isMutating(
  route: Pick<RouteDefinition, 'method' | 'readOnly' | 'opensPortalLink' | 'signedByProcessor'>,
): boolean {
  return (
    route.method !== 'GET' &&
    route.readOnly !== true &&
    route.opensPortalLink !== true &&
    route.signedByProcessor === undefined
  );
}

/** Routes whose function writes the table: the mutating ones, the portal link's exchange, processors' webhooks. */
export function writesTable(
  route: Pick<RouteDefinition, 'method' | 'readOnly' | 'opensPortalLink' | 'signedByProcessor'>,
): boolean {
  return isMutating(route) || route.opensPortalLink === true || route.signedByProcessor !== undefined;
}

export function isPublic(route: Pick<RouteDefinition, 'access'>): boolean {
  return route.access === 'public';
}

/** The pay page and the portal's assets are static: their functions need nothing from the table. */
export function usesTable(route: Pick<RouteDefinition, 'tableAccess'>): boolean {
  return route.tableAccess !== 'none';
}

/**
 * Declares one route, keeping its literal type: a handler's request types come from the schemas of
 * exactly this route.
 */
export function defineRoute<const R extends RouteDefinition>(definition: R): R {
  return definition;
}
