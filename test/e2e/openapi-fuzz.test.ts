import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ajv, document, validatorOf } from '../support/document-schemas';
import { e2eTest } from '../support/e2e-test';
import { invoiceBody } from '../support/invoice-requests';
import { arbitraryOf, type JsonSchema } from '../support/json-schema-arbitrary';
import { newKey, type TestRuntime } from '../support/local-runtime';
import { assertProperty } from '../support/property';

/**
 * Requests generated from docs/openapi.json itself, sent to a real local runtime: whatever the
 * document calls valid must never meet a 5xx, an undocumented status, a response outside its
 * schema, or a 400 other than the state-dependent ones the 400's description lists. The runtime is
 * the sandbox, where production's own operation (Stripe's webhook) is the documented 404;
 * test/e2e/stripe-events.test.ts generates that operation's requests from this document against
 * the runtime as production.
 */

function resolve(ref: string): JsonSchema {
  const [, ...segments] = ref.split('/');
  let target: any = document;
  for (const segment of segments) target = target?.[segment];
  if (target === undefined) throw new Error(`No ${ref} in docs/openapi.json`);
  return target;
}

interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly schema: JsonSchema;
}

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly parameters: readonly Parameter[];
  readonly body: { readonly required: boolean; readonly schema: JsonSchema } | undefined;
  readonly responses: Record<string, { content: Record<string, { schema: JsonSchema }> }>;
  /** Called with the merchant's key; a public route (`security: []`) has its own credential in its body. */
  readonly keyed: boolean;
}

const operations: Operation[] = Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
  Object.entries(item).map(([method, operation]: [string, any]) => ({
    method: method.toUpperCase(),
    path,
    parameters: (operation.parameters ?? []).map((parameter: any) =>
      parameter.$ref === undefined ? parameter : resolve(parameter.$ref),
    ),
    body:
      operation.requestBody === undefined
        ? undefined
        : {
            required: operation.requestBody.required === true,
            schema: operation.requestBody.content['application/json'].schema,
          },
    responses: operation.responses,
    keyed: operation.security === undefined || operation.security.length > 0,
    // A counterexample names its operation rather than printing the whole of it.
    [fc.toStringMethod]: () => `${method.toUpperCase()} ${path}`,
  })),
);

interface GeneratedRequest {
  readonly operation: Operation;
  readonly params: Record<string, unknown>;
  readonly body: unknown;
}

function requestOf(operation: Operation, merchantId: string, known: readonly string[]) {
  const options = { resolve, validatorOf, fixed: { merchantId }, known };
  const params = Object.fromEntries(
    operation.parameters.map((parameter) => {
      const generated = arbitraryOf(parameter.schema, options);
      // `.` and `..` as a whole path segment are removed by every URL parser (RFC 3986, 5.2.4) before
      // a request leaves the client: `/portal/assets/.` is sent as `/portal/assets/`, another route.
      const sendable =
        parameter.in === 'path' ? generated.filter((value) => value !== '.' && value !== '..') : generated;
      const value = parameter.name === 'merchantId' ? fc.constant(merchantId) : sendable;
      return [`${parameter.in}:${parameter.name}`, value];
    }),
  );
  const requiredKeys = operation.parameters
    .filter((parameter) => parameter.required)
    .map((parameter) => `${parameter.in}:${parameter.name}`);
  const body =
    operation.body === undefined
      ? fc.constant(undefined)
      : operation.body.required
        ? arbitraryOf(operation.body.schema, options)
        : fc.option(arbitraryOf(operation.body.schema, options), { nil: undefined });
  return fc.record({
    operation: fc.constant(operation),
    params: fc.record(params, { requiredKeys }),
    body,
  });
}

/**
 * The 400s a request valid by its schema may still meet, each stated in the document (`stated` is
 * the wording that states it): a field naming another resource that does not allow it, an amount
 * past the bound, a foreign cursor, and the one rule between two parameters.
 */
const describedProblems: readonly { path: RegExp; message: RegExp; stated: string }[] = [
  {
    path: /^customerId$/,
    message: /^must name an existing customer\.$/,
    stated: 'names no resource of this merchant',
  },
  {
    path: /^(lineItems\.\d+\.)?productId$/,
    message: /^must name an existing product\.$/,
    stated: 'names no resource of this merchant',
  },
  {
    path: /^(lineItems\.\d+\.)?productId$/,
    message: /^must name an active product\.$/,
    stated: 'an archived product',
  },
  {
    path: /^(lineItems\.\d+\.)?priceId$/,
    message: /^must name a price (of this product|in [A-Z]{3}; .*)\.$/,
    stated: 'a price of another product or in another currency',
  },
  {
    path: /^currency$/,
    message: /^must be [A-Z]{3}, the currency of the price\.$/,
    stated: 'a price of another product or in another currency',
  },
  {
    path: /^lineItems\.\d+\.quantity$/,
    message: /^must keep the line total at most \d+\.$/,
    stated: 'whose total would pass the largest amount',
  },
  {
    path: /^lineItems$/,
    message: /^must keep the invoice total at most \d+\.$/,
    stated: 'whose total would pass the largest amount',
  },
  {
    path: /^paymentMethod\.type$/,
    message: /^must be (one of: )?[a-z_, ]+\.$/,
    stated: 'a `paymentMethod.type` the invoice does not accept',
  },
  {
    path: /^cursor$/,
    message: /^must be a nextCursor of this list, with the same filters\.$/,
    stated: 'a `cursor` that is not a `nextCursor` of this list',
  },
  { path: /^createdFrom$/, message: /^must not be after createdTo\.$/, stated: 'not after createdTo' },
  {
    path: /^Stripe-Signature$/,
    message: /^must be Stripe's signature of this exact body, made within the last 5 minutes\.$/,
    stated: "a `Stripe-Signature` header that is not Stripe's signature of the exact body",
  },
  {
    path: /^since$/,
    message: /^must be within the last 90 days: deliveries are kept that long\.$/,
    stated: 'within the last 90 days',
  },
  {
    path: /^since$/,
    message: /^must not be after until \(or now, when until is left out or later\)\.$/,
    stated: 'not after until',
  },
];

function isDescribed(body: any): boolean {
  const details: { path: string; message: string }[] = body?.error?.details ?? [];
  return (
    body?.error?.code === 'validation_error' &&
    details.length > 0 &&
    details.every((detail) =>
      describedProblems.some(({ path, message }) => path.test(detail.path) && message.test(detail.message)),
    )
  );
}

/** The problems of one exchange, as lines; none when the runtime kept every promise of the document. */
function problemsOf(request: GeneratedRequest, status: number, contentType: string, body: unknown): string[] {
  const { operation } = request;
  if (status >= 500) return [`answered ${status}`];
  if (operation.keyed && (status === 401 || status === 403)) {
    return [`answered ${status} to the merchant's own key and id`];
  }
  if (status === 400 && !isDescribed(body)) return ['refused a request valid by its schema with 400'];
  const response = operation.responses[String(status)];
  if (response === undefined) return [`answered ${status}, which the operation does not document`];
  const mediaType = contentType.split(';')[0]?.trim() ?? '';
  const content = response.content[mediaType];
  if (content === undefined) return [`answered ${status} as ${mediaType}, which is not documented`];
  if (mediaType !== 'application/json') return [];
  const validate = validatorOf(content.schema);
  return validate(body) ? [] : [`answered ${status} outside its schema: ${ajv.errorsText(validate.errors)}`];
}

/** The generator's own promise: what it made is valid by the document. */
function invalidParts(request: GeneratedRequest): string[] {
  const { operation, params, body } = request;
  const problems = operation.parameters.flatMap((parameter) => {
    const value = params[`${parameter.in}:${parameter.name}`];
    if (value === undefined) return [];
    const validate = validatorOf(parameter.schema);
    return validate(value) ? [] : [`${parameter.name}: ${ajv.errorsText(validate.errors)}`];
  });
  if (operation.body !== undefined && body !== undefined) {
    const validate = validatorOf(operation.body.schema);
    if (!validate(body)) problems.push(`body: ${ajv.errorsText(validate.errors)}`);
  }
  return problems;
}

/**
 * One request on a connection of its own. The pay page answers HTML, which the JSON test client
 * would not read; and generating can hold this process longer than the server keeps an idle
 * connection, so a pooled one could be closed under a request.
 */
function send(
  method: string,
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; contentType: string; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          contentType: response.headers['content-type'] ?? '',
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

const test = e2eTest();
let t: TestRuntime;
let known: string[];

test.beforeAll(async ({ t: runtime, refs }) => {
  t = runtime;
  const invoice = await t.api('POST', '/invoices', {
    body: invoiceBody(t.runtime.merchantId, refs),
    idempotencyKey: newKey(),
  });
  expect(invoice.status).toBe(201);
  known = [refs.customerId, refs.productId, refs.priceId, invoice.body.invoiceId];
});

describe('docs/openapi.json', () => {
  it('states every rule a request valid by its schemas may still break', () => {
    const text = JSON.stringify(document);
    const missing = describedProblems.filter(({ stated }) => !text.includes(stated));
    expect(missing.map(({ stated }) => stated)).toEqual([]);
  });

  it('describes every operation of the runtime: a request valid by it meets no 5xx, no undocumented 400 and a response valid by it', async () => {
    const requests = fc.oneof(
      ...operations.map((operation) => requestOf(operation, t.runtime.merchantId, known)),
    );
    await assertProperty(
      fc.asyncProperty(requests, async (request) => {
        const invalid = invalidParts(request);
        if (invalid.length > 0)
          throw new Error(`The generator made an invalid request: ${invalid.join('; ')}`);
        const { operation, params, body } = request;
        const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeURIComponent(String(params[`path:${name}`])),
        );
        const query = Object.fromEntries(
          Object.entries(params)
            .filter(([key]) => key.startsWith('query:'))
            .map(([key, value]) => [key.slice('query:'.length), String(value)]),
        );
        const url = new URL(path, t.runtime.baseUrl);
        for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
        const idempotencyKey = params['header:Idempotency-Key'];
        const response = await send(
          operation.method,
          url,
          {
            Authorization: `Bearer ${t.runtime.apiKey}`,
            'Content-Type': 'application/json',
            ...(typeof idempotencyKey === 'string' ? { 'Idempotency-Key': idempotencyKey } : {}),
          },
          body === undefined ? undefined : JSON.stringify(body),
        );
        const { status, contentType, text } = response;
        const parsed = contentType.startsWith('application/json') && text !== '' ? JSON.parse(text) : text;
        const problems = problemsOf(request, status, contentType, parsed);
        if (problems.length > 0) {
          throw new Error(
            `${operation.method} ${url.pathname}${url.search}: ${problems.join('; ')}\n${text}`,
          );
        }
      }),
      { numRuns: 150 },
    );
  }, 600_000);
});
