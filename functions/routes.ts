import type { z } from 'zod';
import {
  CreateProductBody,
  ListProductsQuery,
  MerchantQuery,
  Product,
  ProductPathParams,
  SetProductStatusBody,
} from './api/catalog/schemas';
import { listResponse } from './api/shared-schemas';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where a route finds the merchantId it acts for (DESIGN §4, "merchantId on every route"). */
export type MerchantScope = 'path' | 'query' | 'body';

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
    readonly params?: z.ZodObject;
    readonly query?: z.ZodObject;
    readonly body?: z.ZodType;
  };
  readonly successStatus: 200 | 201;
  readonly response: z.ZodType;
}

/** Mutating methods require an Idempotency-Key (DESIGN §3). */
export function isMutating(method: HttpMethod): boolean {
  return method !== 'GET';
}

function route<const R extends RouteDefinition>(definition: R): R {
  return definition;
}

/**
 * The route table: the one place a route is declared. The CDK stack, the local gateway and
 * `docs/openapi.json` all derive from it.
 */
export const routes = {
  createProduct: route({
    operationId: 'createProduct',
    method: 'POST',
    path: '/catalog/products',
    summary: 'Create a catalog product',
    tag: 'Catalog',
    handler: 'api/catalog/create-product',
    merchantScope: 'body',
    request: { body: CreateProductBody },
    successStatus: 201,
    response: Product,
  }),
  setProductStatus: route({
    operationId: 'setProductStatus',
    method: 'PUT',
    path: '/catalog/products/{productId}/status',
    summary: 'Set a catalog product active or inactive',
    tag: 'Catalog',
    handler: 'api/catalog/set-product-status',
    merchantScope: 'body',
    request: { params: ProductPathParams, body: SetProductStatusBody },
    successStatus: 200,
    response: Product,
  }),
  listProducts: route({
    operationId: 'listProducts',
    method: 'GET',
    path: '/catalog/products',
    summary: 'List catalog products, newest first',
    tag: 'Catalog',
    handler: 'api/catalog/list-products',
    merchantScope: 'query',
    request: { query: ListProductsQuery },
    successStatus: 200,
    response: listResponse(Product),
  }),
  getProduct: route({
    operationId: 'getProduct',
    method: 'GET',
    path: '/catalog/products/{productId}',
    summary: 'Get a catalog product',
    tag: 'Catalog',
    handler: 'api/catalog/get-product',
    merchantScope: 'query',
    request: { params: ProductPathParams, query: MerchantQuery },
    successStatus: 200,
    response: Product,
  }),
} as const satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;

export const routeList: readonly RouteDefinition[] = Object.values(routes);
