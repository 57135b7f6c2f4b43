import * as z from 'zod/mini';
import { ErrorResponse } from '../../functions/api/shared-schemas';
import { Stage } from '../../functions/config';
import { recentSuccessMs } from '../../functions/domain/endpoint-health';
import { idempotencyKeyPattern } from '../../functions/domain/idempotency';
import { ErrorCode } from '../../functions/errors/error-code';
import { maxBodyBytes } from '../../functions/http/json-body';
import {
  type HttpMethod,
  isMutating,
  isPublic,
  type RouteDefinition,
} from '../../functions/route-definition';
import { schemaMeta } from '../../functions/validation/schema-meta';
import { rateLimitLines } from './rate-limit-lines';
import {
  type HeaderParameter,
  type WebhookDefinition,
  type WebhookOperation,
  webhookDefinitions,
  webhookHeaderParameters,
  webhookItemsOf,
  webhookTag,
} from './webhooks';

/**
 * Builds the OpenAPI 3.1 description of the API from the route table and the webhooks the service
 * sends (tools/openapi/webhooks.ts), and nothing else: every operation, parameter and body comes from
 * a route's or an event type's schemas; the conventions every route shares (auth, Idempotency-Key,
 * error shape) come from docs/architecture.md#conventions-for-every-endpoint.
 * Pure and deterministic, so `docs/openapi.json` can be checked for staleness byte for byte.
 */
export function buildOpenApi(
  routes: readonly RouteDefinition[],
  webhooks: readonly WebhookDefinition[] = webhookDefinitions,
): OpenApiDocument {
  requireUniqueOperationIds([...routes, ...webhooks]);
  const schemas = convertSchemas([
    { schema: ErrorResponse, io: 'output' },
    ...routes.flatMap(schemaSlotsOf),
    ...webhooks.map(({ delivery }) => ({ schema: delivery, io: 'output' as const })),
  ]);
  const errorSchema = schemas.jsonOf({ schema: ErrorResponse, io: 'output' });
  const paths: Record<string, PathItem> = {};
  for (const route of [...routes].sort(byPathThenMethod)) {
    paths[route.path] = {
      ...paths[route.path],
      [lowerCase(route.method)]: operationOf(route, schemas, errorSchema),
    };
  }
  const sendsWebhooks = webhooks.length > 0;
  return {
    openapi: '3.1.0',
    info: infoObject(),
    servers: Object.values(Stage).map(serverOf),
    security: [{ [securitySchemeName]: [] }],
    tags: [...new Set([...routes.map((route) => route.tag), ...(sendsWebhooks ? [webhookTag] : [])])]
      .sort(byCodeUnits)
      .map((name) => ({ name })),
    paths,
    ...(sendsWebhooks
      ? { webhooks: webhookItemsOf(webhooks, (schema) => schemas.jsonOf({ schema, io: 'output' })) }
      : {}),
    components: {
      schemas: schemas.components,
      parameters: {
        [idempotencyKeyParameter]: idempotencyKeyParameterObject,
        ...(sendsWebhooks ? webhookHeaderParameters : {}),
      },
      headers: { [replayedHeader]: replayedHeaderObject, [retryAfterHeader]: retryAfterHeaderObject },
      securitySchemes: {
        [securitySchemeName]: securitySchemeObject,
        [portalSecuritySchemeName]: portalSecuritySchemeObject,
      },
    },
  };
}

/**
 * An operationId names one operation of the whole document, routes and webhooks alike: a generated
 * client keys its operations by it.
 */
function requireUniqueOperationIds(operations: readonly { readonly operationId: string }[]): void {
  const seen = new Set<string>();
  for (const { operationId } of operations) {
    if (seen.has(operationId)) throw new Error(`Two operations carry the operationId "${operationId}"`);
    seen.add(operationId);
  }
}

/** The text of `docs/openapi.json`: two-space indent and a trailing newline. */
export function serializeOpenApi(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The title and description of the interface, shown above its operations. */
function infoObject(): OpenApiDocument['info'] {
  return {
    title: 'Merchant Payments API',
    // The interface's own version identifier (docs/decisions/documentation.md), not
    // the package's version.
    version: interfaceVersion,
    description: [
      'Catalog, invoices, payments, refunds and signed webhook deliveries for merchants.',
      '',
      `The API version (\`info.version\`, \`${interfaceVersion}\`) names this interface description, not a release or a date; no request selects it.`,
      '',
      `Every request carries \`Authorization: Bearer merchant_<prefix>_<secret>\`; every POST, PUT, PATCH and DELETE carries an \`${idempotencyKeyHeader}\`.`,
      'Errors share one shape: `{"error":{"code","message","requestId","details"?}}`.',
      'API Gateway answers some requests itself, before any function runs, in the same shape: an unknown route or method is a 404 `not_found`, a body over its 10 MB limit a 413 `payload_too_large`, a request over the stage throttle a 429 `rate_limited`, an API key it denies a 401 `unauthorized`; any other request it refuses gets its own 4xx status and the code `bad_request`.',
      "The firewall in front of the API answers in the same shape too: a 429 `rate_limited` with `Retry-After` for an API key or, on the pay page's routes, an address over its limit (each operation's 429 lists its limits), and a 403 `bad_request` for a pay page request that AWS's managed rules refuse.",
      'An id in the path that is not a well-formed TypeID of its kind is a 404 `not_found`, as an id that names nothing is: it cannot name anything.',
      'A query parameter given twice is a 400 naming it; every query parameter takes one value.',
      'A body is sent as `application/json` in UTF-8, with `charset=utf-8` or no charset (415 `unsupported_media_type` otherwise); no object in it may hold more than 256 keys, and a 400 lists at most 100 problems, its message counting them all.',
      'Every string must be well-formed Unicode: a lone UTF-16 surrogate (possible in JSON as `\\ud800`) is a 400 naming its field.',
      '',
      "`webhooks` describe the requests the service sends: for each event, one POST to each active webhook endpoint subscribed to its type, signed with that endpoint's secret (`Merchant-Webhook-Signature`, and the Standard Webhooks `webhook-signature`). Verify the signature over the raw body before parsing it; the webhook guide (`docs/receiving-webhooks.md`) says how.",
      '',
      'Generated from the route table (`functions/routes.ts`) and the event types (`functions/api/event-schemas.ts`) by `npm run openapi`; do not edit by hand.',
    ].join('\n'),
  };
}

export type JsonSchema = { [keyword: string]: unknown };

/** `input` for requests (defaults make a field optional), `output` for responses. */
export type Io = 'input' | 'output';

type Schema = z.ZodMiniType;

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly servers: readonly ServerObject[];
  readonly security: readonly Record<string, readonly string[]>[];
  readonly tags: readonly { readonly name: string }[];
  readonly paths: Record<string, PathItem>;
  /** Absent when the service sends no webhook (a document built from routes alone). */
  readonly webhooks?: Record<string, { readonly post: WebhookOperation }>;
  readonly components: {
    readonly schemas: Record<string, JsonSchema>;
    readonly parameters: Record<string, ParameterObject | HeaderParameter>;
    readonly headers: Record<string, HeaderObject>;
    readonly securitySchemes: Record<string, JsonSchema>;
  };
}

export type PathItem = Partial<Record<Lowercase<HttpMethod>, OperationObject>>;

export interface OperationObject {
  readonly operationId: string;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly security?: readonly Record<string, readonly string[]>[];
  readonly parameters?: readonly (ParameterObject | Reference)[];
  readonly requestBody?: {
    readonly required: boolean;
    readonly content: { readonly 'application/json': { readonly schema: JsonSchema } };
  };
  readonly responses: Record<string, ResponseObject>;
}

export interface ParameterObject {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
}

export interface ResponseObject {
  readonly description: string;
  readonly headers?: Record<string, Reference>;
  readonly content: Record<string, { readonly schema: JsonSchema }>;
}

interface HeaderObject {
  readonly description: string;
  readonly schema: JsonSchema;
}

interface ServerObject {
  readonly url: string;
  readonly description: string;
  readonly variables?: Record<
    string,
    { readonly default: string; readonly enum?: string[]; readonly description: string }
  >;
}

interface Reference {
  readonly $ref: string;
}

// ---- Operations ------------------------------------------------------------------------------

const securitySchemeName = 'merchantApiKey';
const idempotencyKeyHeader = 'Idempotency-Key';
const idempotencyKeyParameter = 'IdempotencyKey';
const replayedHeader = 'Idempotent-Replayed';
const retryAfterHeader = 'Retry-After';

const securitySchemeObject = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'merchant_<prefix>_<secret>',
  description:
    'The API key of one merchant in one environment. `<prefix>` is `sbx` or `prd` followed by a 10-character key id; a key of one environment is rejected by the other.',
};

/** A portal session's bearer (docs/decisions/merchant-portal-sessions.md); its role is the session's scope. */
const portalSecuritySchemeName = 'portalSession';

const portalSecuritySchemeObject = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'portal_<prefix>_<secret>',
  description:
    'The bearer the merchant portal gets by opening a portal link (`POST /portal/exchange`). Accepted only by the ' +
    "routes that list it, with the role its session's scope must have: `read` routes take a `read` or `manage` " +
    'session, `manage` routes only a `manage` one.',
};

/**
 * Who may call a route: an API key; on the portal's routes also a portal session of the scope they
 * need (OpenAPI 3.1 lets a bearer scheme name roles); nobody on a public route.
 */
function securityOf(route: RouteDefinition): Pick<OperationObject, 'security'> {
  if (isPublic(route)) return { security: [] };
  if (route.portal === undefined) return {};
  return { security: [{ [securitySchemeName]: [] }, { [portalSecuritySchemeName]: [route.portal] }] };
}

const idempotencyKeyParameterObject: ParameterObject = {
  name: idempotencyKeyHeader,
  in: 'header',
  required: true,
  description:
    'Retrying with the same key and payload within 24 h returns the stored response, marked `Idempotent-Replayed: true`; the same key with another payload is refused with 422. ' +
    'Stored and replayed: every 2xx, and a 404 or 409 decided after the request passed validation, but for the 409s `payment_in_progress` and `endpoint_unhealthy`. Never stored, so a retry is decided afresh: ' +
    'those two, 400, 401, 403, 413, 415, 422, 429 and 5xx. A 400 decided on stored state (an id in the body that no longer qualifies) replays an earlier outcome of the key when there is one.',
  // Mirrors `isValidIdempotencyKey` (functions/domain/idempotency.ts): 1–255 visible ASCII characters.
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: idempotencyKeyPattern.source },
};

const retryAfterHeaderObject: HeaderObject = {
  description:
    "Whole seconds until the request can succeed again: the window of the limit that was passed (the per-key and per-address limits), 1 after a throttle, or the route's own limit's wait.",
  schema: { type: 'integer', minimum: 1 },
};

const replayedHeaderObject: HeaderObject = {
  description: `\`true\` when this is the stored response of an earlier request with the same ${idempotencyKeyHeader} and payload.`,
  schema: { type: 'string', enum: ['true'] },
};

/**
 * Responses an idempotency record stores and replays (docs/decisions/idempotency.md): every 2xx, and 404/409
 * decided after validation.
 */
const replayedErrorStatuses: ReadonlySet<number> = new Set([404, 409]);

function operationOf(
  route: RouteDefinition,
  schemas: ConvertedSchemas,
  errorSchema: JsonSchema,
): OperationObject {
  const { params, query, body } = route.request;
  const parameters = [
    ...(params === undefined ? [] : parametersOf(schemas.jsonOf({ schema: params, io: 'input' }), 'path')),
    ...(query === undefined ? [] : parametersOf(schemas.jsonOf({ schema: query, io: 'input' }), 'query')),
    ...(isMutating(route) ? [{ $ref: `#/components/parameters/${idempotencyKeyParameter}` }] : []),
  ];
  const replayed = isMutating(route) ? { headers: { [replayedHeader]: replayedHeaderRef } } : {};
  const responses: Record<string, ResponseObject> = {
    [route.successStatus]: {
      description: route.successStatus === 201 ? 'Created.' : 'Succeeded.',
      ...replayed,
      content: successContent(route, schemas.jsonOf({ schema: route.response, io: 'output' })),
    },
  };
  for (const [status, codes] of errorCodesByStatus(route)) {
    // Every 429 says which limits can send it and when to retry.
    const rateLimited = status === ErrorCode.rate_limited;
    responses[status] = {
      description: [
        ...codes.map((code) => `- \`${code}\`: ${errorCodes[code].meaning}`),
        ...(rateLimited ? rateLimitLines(route) : []),
      ].join('\n'),
      ...(replayedErrorStatuses.has(status) ? replayed : {}),
      ...(rateLimited ? { headers: { [retryAfterHeader]: retryAfterHeaderRef } } : {}),
      content: jsonContent(errorSchema),
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    // The pay page and its routes take no API key: the pay-link slug in the body is the credential.
    ...securityOf(route),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(body === undefined
      ? {}
      : {
          requestBody: {
            // A body schema that accepts no body at all (`.optional()`) makes the body optional.
            required: !z.safeParse(body, undefined).success,
            content: jsonContent(schemas.jsonOf({ schema: body, io: 'input' })),
          },
        }),
    responses,
  };
}

const replayedHeaderRef: Reference = { $ref: `#/components/headers/${replayedHeader}` };
const retryAfterHeaderRef: Reference = { $ref: `#/components/headers/${retryAfterHeader}` };

function jsonContent(schema: JsonSchema) {
  return { 'application/json': { schema } } as const;
}

/** One parameter per property of a converted params or query object, in declaration order. */
function parametersOf(object: JsonSchema, location: 'path' | 'query'): ParameterObject[] {
  const properties = object.properties as Record<string, JsonSchema> | undefined;
  if (properties === undefined)
    throw new Error(`A ${location} schema must be a strictObject (got ${JSON.stringify(object)})`);
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    schema,
  }));
}

/**
 * When each error code (docs/architecture.md#conventions-for-every-endpoint) can answer a route; typed by
 * `ErrorCode` so a new code needs a decision here.
 */
const errorCodes: Record<
  ErrorCode,
  { readonly appliesTo: (route: RouteDefinition) => boolean; readonly meaning: string }
> = {
  validation_error: {
    appliesTo: isJson,
    meaning:
      'a parameter or body field is missing, of the wrong type or out of range; `details` lists each problem ' +
      'under its field, e.g. `{"path":"merchantId","message":"merchantId is required."}` or ' +
      '`{"path":"name","message":"must be at most 200 characters."}`. ' +
      'Every such rule is a keyword of the request schema or stated in its description. Besides these, a ' +
      'request valid by its schema is a 400 `validation_error` on the field that names another resource when ' +
      'that resource does not allow it: a `customerId`, `productId` or `priceId` in the body that names no ' +
      'resource of this merchant, an archived product, a price of another product or in another currency; a ' +
      '`quantity` or line items whose total would pass the largest amount; a `paymentMethod.type` the invoice ' +
      'does not accept; a `cursor` that is not a `nextCursor` of this list with the same filters; on ' +
      "`POST /processors/stripe/events`, a `Stripe-Signature` header that is not Stripe's signature of the " +
      'exact body, made within the last 5 minutes.',
  },
  invalid_json: { appliesTo: hasBody, meaning: 'the body is not valid JSON.' },
  idempotency_key_required: {
    appliesTo: mutates,
    meaning: `the ${idempotencyKeyHeader} header is missing or not 1–255 visible ASCII characters.`,
  },
  unauthorized: {
    appliesTo: (route) => !isPublic(route) || route.opensPortalLink === true,
    meaning:
      'the API key is missing, malformed, unknown, revoked, expired or of the other environment; or the portal ' +
      "session's bearer is, or its session ended (expired, revoked, or the API key that made it revoked). " +
      'On `POST /portal/exchange`: the token is no portal link of this environment.',
  },
  forbidden: {
    appliesTo: (route) => !isPublic(route),
    meaning:
      "the merchantId is not the API key's (or the portal session's) merchant; or a portal session called a route " +
      'it may not: one outside the portal, or one that changes something with a `read` session.',
  },
  not_found: {
    appliesTo: (route) => isJson(route) || route.answersNotFound === true,
    meaning: 'the resource does not exist or belongs to another merchant, or an id in the path is malformed.',
  },
  invalid_state: { appliesTo: mutates, meaning: 'the resource is not in a state that allows this change.' },
  idempotency_in_progress: {
    appliesTo: callsProcessor,
    meaning: `a request with this ${idempotencyKeyHeader} is still at the payment processor; retry in a few seconds.`,
  },
  payment_in_progress: {
    appliesTo: changesPaymentsOrInvoice,
    meaning:
      'a payment or refund of this invoice or payment, or a link of this processor account, is at the ' +
      'processor right now; retry in a few seconds.',
  },
  limit_exceeded: { appliesTo: mutates, meaning: 'a per-merchant limit would be exceeded.' },
  endpoint_unhealthy: {
    appliesTo: (route) => route.needsAnsweringEndpoint === true,
    meaning:
      `the webhook endpoint has not shown within the last ${recentSuccessMs / 60_000} minutes that it answers: ` +
      'no attempt to it succeeded in that time (none ever, or none since its url changed), or one failed since. ' +
      'Send a test delivery (`POST …/test`), fix the endpoint until the test succeeds, then retry. Not stored for the Idempotency-Key.',
  },
  portal_link_used: {
    appliesTo: opensPortalLink,
    meaning: 'the link was already opened: a link opens once. Ask the merchant app for a new one.',
  },
  portal_session_expired: { appliesTo: opensPortalLink, meaning: 'the link is past its `expiresAt`.' },
  portal_session_revoked: {
    appliesTo: opensPortalLink,
    meaning: 'the session was revoked, or the API key that made it was revoked or expired.',
  },
  payload_too_large: { appliesTo: hasBody, meaning: `the body is larger than ${maxBodyBytes / 1024} KB.` },
  unsupported_media_type: {
    appliesTo: hasBody,
    meaning:
      'a body was sent without `Content-Type: application/json`, or with a charset other than UTF-8 (`charset=utf-8`, `utf8` in any case, quoted or not, or no charset, are read).',
  },
  idempotency_key_reused: {
    appliesTo: mutates,
    meaning: `this ${idempotencyKeyHeader} was already used with a different payload.`,
  },
  rate_limited: {
    appliesTo: () => true,
    meaning: 'too many requests; retry after the `Retry-After` seconds. Sent past any of these limits:',
  },
  internal_error: { appliesTo: () => true, meaning: 'an unexpected error; `requestId` identifies it.' },
  service_unavailable: {
    appliesTo: callsProcessor,
    meaning:
      'no payment processor is available here, or it did not answer in time (nothing was changed: send the ' +
      'same request again after the `Retry-After` seconds).',
  },
};

/** JSON, or each media type a page route serves, all with the route's response schema. */
function successContent(route: RouteDefinition, schema: JsonSchema): Record<string, { schema: JsonSchema }> {
  if (route.contentType === undefined) return jsonContent(schema);
  const types: readonly string[] =
    typeof route.contentType === 'string' ? [route.contentType] : route.contentType;
  return Object.fromEntries(types.map((type) => [type, { schema }]));
}

function errorCodesByStatus(route: RouteDefinition): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of Object.keys(errorCodes) as ErrorCode[]) {
    if (!errorCodes[code].appliesTo(route)) continue;
    const status = ErrorCode[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

function hasBody(route: RouteDefinition): boolean {
  return route.request.body !== undefined;
}

function mutates(route: RouteDefinition): boolean {
  return isMutating(route);
}

function opensPortalLink(route: RouteDefinition): boolean {
  return route.opensPortalLink === true;
}

function callsProcessor(route: RouteDefinition): boolean {
  return route.callsProcessor === true;
}

function isJson(route: RouteDefinition): boolean {
  return route.contentType === undefined;
}

/** Writers of invoices and payments, which a payment or refund at the processor holds off. */
function changesPaymentsOrInvoice(route: RouteDefinition): boolean {
  return (
    mutates(route) &&
    (callsProcessor(route) || route.path.startsWith('/invoices/{id}/') || route.path.endsWith('/return'))
  );
}

/** Plain text: the API reference shows a server's description as it is, with no markdown. */
/** The version identifier the interface description carries. */
export const interfaceVersion = '1448-03-01';

const stageDescriptions: Record<Stage, string> = {
  sandbox: 'Sandbox: merchant_sbx… keys, simulated payments.',
  production: 'Production: merchant_prd… keys.',
};

/**
 * One API Gateway stage per environment (docs/architecture.md#the-request-path); the API id and region are
 * known after deploy.
 */
function serverOf(stage: Stage): ServerObject {
  return {
    url: 'https://{apiId}.execute-api.{region}.amazonaws.com/{stage}',
    description: stageDescriptions[stage],
    variables: {
      apiId: {
        default: 'apiId',
        description: 'REST API id, from the `ApiUrl` output of the deployed stack.',
      },
      region: { default: 'us-east-1', description: 'AWS region of the deployed stack.' },
      stage: { default: stage, enum: [stage], description: 'API Gateway stage.' },
    },
  };
}

const methodOrder: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function byPathThenMethod(a: RouteDefinition, b: RouteDefinition): number {
  return byCodeUnits(a.path, b.path) || methodOrder.indexOf(a.method) - methodOrder.indexOf(b.method);
}

/** Locale-independent, so the document is the same on every machine. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lowerCase(method: HttpMethod): Lowercase<HttpMethod> {
  return method.toLowerCase() as Lowercase<HttpMethod>;
}

function schemaSlotsOf(route: RouteDefinition): SchemaSlot[] {
  const { params, query, body } = route.request;
  return [
    ...[params, query, body].flatMap((schema) =>
      schema === undefined ? [] : [{ schema, io: 'input' as const }],
    ),
    { schema: route.response, io: 'output' },
  ];
}

// ---- Schemas ---------------------------------------------------------------------------------

/** A schema and the side it is read from: `input` for requests (defaults), `output` for responses. */
interface SchemaSlot {
  readonly schema: Schema;
  readonly io: Io;
}

interface ConvertedSchemas {
  /** `components/schemas`, sorted by name. */
  readonly components: Record<string, JsonSchema>;
  /** The JSON Schema of one slot; a named schema is a `$ref` to its component. */
  jsonOf(slot: SchemaSlot): JsonSchema;
}

const componentPrefix = '#/components/schemas/';

/**
 * Converts the slots to JSON Schema with `z.toJSONSchema`. Schemas whose `schemaMeta` has an `id`
 * become `components/schemas/<id>`. When a named schema reads differently as input than as output
 * (a default, or a named schema inside that has one) and is used both ways, its request form is
 * `<id>Input`.
 */
function convertSchemas(slots: readonly SchemaSlot[]): ConvertedSchemas {
  const used = { input: new Map<string, Schema>(), output: new Map<string, Schema>() };
  for (const slot of slots) collectNamedSchemas(slot.schema, used[slot.io]);

  const plain = { input: emit('input', (id) => id), output: emit('output', (id) => id) };
  const differing = idsReadingDifferently(plain.input, plain.output);
  const nameOf = (io: Io, id: string) =>
    io === 'input' && differing.has(id) && used.output.has(id) ? `${id}Input` : id;
  const emitted = {
    input: emit('input', (id) => nameOf('input', id)),
    output: emit('output', (id) => nameOf('output', id)),
  };

  const components: Record<string, JsonSchema> = {};
  const ids = (io: Io) =>
    [...used[io].keys()].map((id) => [nameOf(io, id), emitted[io][id] as JsonSchema] as const);
  for (const [name, json] of [...ids('output'), ...ids('input')].sort(([a], [b]) => byCodeUnits(a, b))) {
    components[name] = json;
  }
  return {
    components,
    jsonOf: ({ schema, io }) => {
      const id = schemaMeta.get(schema)?.id;
      if (id !== undefined) return { $ref: componentPrefix + nameOf(io, id) };
      return inlineJsonOf(schema, io, (name) => nameOf(io, name));
    },
  };
}

/** Every named schema's own JSON Schema, with a `$ref` for every named schema inside it. */
function emit(io: Io, nameOf: (id: string) => string): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(schemaMeta, {
    metadata: schemaMeta,
    io,
    target: 'draft-2020-12',
    uri: (id) => componentPrefix + nameOf(id),
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $id: _id, $schema: _schema, ...json }]) => [
      id,
      strictTypes(json) as JsonSchema,
    ]),
  );
}

/** A schema without a name of its own, its named schemas as `$ref`s to their components. */
function inlineJsonOf(schema: Schema, io: Io, nameOf: (id: string) => string): JsonSchema {
  const {
    $schema: _schema,
    $defs: _defs,
    ...json
  } = z.toJSONSchema(schema, {
    metadata: schemaMeta,
    io,
    target: 'draft-2020-12',
  });
  return strictTypes(componentRefs(json, nameOf)) as JsonSchema;
}

/**
 * zod writes `anyOf` of bare types as one `type` list. Only a type and null stay a list: a longer
 * one is refused by strict validators (Ajv's strictTypes), so it goes back to one `anyOf` branch per type.
 */
function strictTypes(json: unknown): unknown {
  if (Array.isArray(json)) return json.map(strictTypes);
  if (json === null || typeof json !== 'object') return json;
  const entries = Object.entries(json).map(([key, value]) => [key, strictTypes(value)] as const);
  return Object.fromEntries(
    entries.flatMap(([key, value]) =>
      key === 'type' && Array.isArray(value) && (value.length !== 2 || !value.includes('null'))
        ? [['anyOf', value.map((type) => ({ type }))]]
        : [[key, value]],
    ),
  );
}

const localDefsPrefix = '#/$defs/';

/** zod refers to a named schema inside `$defs`; the document keeps each in its component. */
function componentRefs(json: unknown, nameOf: (id: string) => string): unknown {
  if (Array.isArray(json)) return json.map((item) => componentRefs(item, nameOf));
  if (json === null || typeof json !== 'object') return json;
  return Object.fromEntries(
    Object.entries(json).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.startsWith(localDefsPrefix)
        ? [key, componentPrefix + nameOf(decodeURIComponent(value.slice(localDefsPrefix.length)))]
        : [key, componentRefs(value, nameOf)],
    ),
  );
}

/** Records every schema with an `id` reachable from `schema`, itself included. */
function collectNamedSchemas(schema: Schema, into: Map<string, Schema>): void {
  const id = schemaMeta.get(schema)?.id;
  if (id !== undefined) addNamed(into, id, schema);
  for (const inner of innerSchemas(schema)) collectNamedSchemas(inner, into);
}

function innerSchemas(schema: Schema): readonly Schema[] {
  const { def } = (schema as unknown as z.core.$ZodTypes)._zod;
  switch (def.type) {
    case 'object':
      return Object.values(def.shape) as Schema[];
    case 'array':
      return [def.element as Schema];
    case 'record':
      return [def.keyType, def.valueType] as Schema[];
    case 'union':
      return def.options as Schema[];
    case 'optional':
    case 'nullable':
    case 'default':
      return [def.innerType as Schema];
    default:
      return [];
  }
}

function addNamed(named: Map<string, Schema>, id: string, schema: Schema): void {
  const known = named.get(id);
  if (known !== undefined && known !== schema) throw new Error(`Two different schemas carry the id "${id}"`);
  named.set(id, schema);
}

/** Ids whose input and output JSON differ, directly or through a named schema they reference. */
function idsReadingDifferently(
  input: Record<string, JsonSchema>,
  output: Record<string, JsonSchema>,
): Set<string> {
  const ids = Object.keys(input);
  const differing = new Set(ids.filter((id) => JSON.stringify(input[id]) !== JSON.stringify(output[id])));
  let grew = true;
  while (grew) {
    grew = false;
    for (const id of ids) {
      if (differing.has(id) || !referencedIds(input[id]).some((ref) => differing.has(ref))) continue;
      differing.add(id);
      grew = true;
    }
  }
  return differing;
}

function referencedIds(json: unknown): string[] {
  if (Array.isArray(json)) return json.flatMap(referencedIds);
  if (json === null || typeof json !== 'object') return [];
  return Object.entries(json).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' && value.startsWith(componentPrefix)
      ? [value.slice(componentPrefix.length)]
      : referencedIds(value),
  );
}
