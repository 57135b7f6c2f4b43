import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { routes } from '../../functions/routes';
import { e2eTest } from '../support/e2e-test';
import type { HttpsReceiver } from '../support/https-receiver';
import { type ApiResult, newKey, type TestRuntime } from '../support/local-runtime';
import { mailSettled } from '../support/mail-settled';
import { assertProperty } from '../support/property';
import { type RecordedRequest, recordKeyedRequests } from '../support/recorded-requests';

/*
 * Hostile input on every keyed route: each route's happy-path request (with real resources), then
 * broken in every way a caller can break it. Every answer is a 4xx in the error shape, and the
 * table is the same after all of them as before.
 */

const test = e2eTest({ WEBHOOK_ALLOW_PRIVATE_TARGETS: true });
let receiver: HttpsReceiver, t: TestRuntime;
let recorded: RecordedRequest[];
let before: Record<string, unknown>[];

test.beforeAll(async ({ t: runtime, receiver: started }) => {
  [t, receiver] = [runtime, started];
  recorded = [...(await recordKeyedRequests(t, receiver)).requests.values()];
  await mailSettled(t);
  before = await t.scanTable();
}, 180_000);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = readonly (string | number)[];

/** A request as sent on the wire: the body is raw text or bytes, so it may be anything. */
interface Hostile {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly query?: Record<string, string | number> | undefined;
  readonly body?: string | Uint8Array | undefined;
}

async function send(request: Hostile): Promise<ApiResult> {
  const url = new URL(request.path, t.runtime.baseUrl);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, String(value));
  const response = await fetch(url, {
    method: request.method,
    headers: {
      Authorization: `Bearer ${t.runtime.apiKey}`,
      'Content-Type': 'application/json',
      ...(request.method === 'GET' ? {} : { 'Idempotency-Key': newKey() }),
    },
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

function expectRefused(result: ApiResult, label: string) {
  const error = (result.body as { error?: Record<string, unknown> } | undefined)?.error;
  expect({ label, status: result.status >= 400 && result.status < 500 }).toEqual({ label, status: true });
  expect({
    label,
    code: typeof error?.code,
    message: typeof error?.message,
    requestId: typeof error?.requestId,
  }).toEqual({ label, code: 'string', message: 'string', requestId: 'string' });
}

const withBody = () => recorded.filter((request) => request.options.body !== undefined);

/** The pay page's body routes, which take no key: anyone on the internet can send them anything. */
const publicRequests: RecordedRequest[] = [
  {
    route: routes.payInvoice,
    path: '/pay/payments',
    body: { slug: 'a-slug', paymentMethod: { type: 'card' } },
  },
  { route: routes.getPayInvoice, path: '/pay/invoice', body: { slug: 'a-slug' } },
  { route: routes.exchangePortalLink, path: '/portal/exchange', body: { token: 'a-token' } },
].map(({ route, path, body }) => ({
  route,
  method: 'POST',
  path,
  options: { body },
  result: { status: 0, headers: new Headers(), body: undefined },
}));
const bodyOf = (request: RecordedRequest) => request.options.body as Json;
const base = (request: RecordedRequest, label: string, body?: string | Uint8Array): Hostile => ({
  label: `${request.route.operationId}: ${label}`,
  method: request.method,
  path: request.path,
  query: request.options.query,
  body,
});

/** Every path to a value inside `value` (objects and arrays, not the root). */
function pathsOf(value: Json, path: Path = []): Path[] {
  if (Array.isArray(value))
    return value.flatMap((item, index) => [[...path, index], ...pathsOf(item, [...path, index])]);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => [[...path, key], ...pathsOf(item, [...path, key])]);
}

/** Every object inside `value`, the root included. */
function objectPathsOf(value: Json): Path[] {
  const isObject = (item: Json) => item !== null && typeof item === 'object' && !Array.isArray(item);
  return [[], ...pathsOf(value)].filter((path) => isObject(at(value, path)));
}

function at(value: Json, path: Path): Json {
  return path.reduce<Json>((item, key) => (item as Record<string | number, Json>)[key] as Json, value);
}

function replaced(value: Json, path: Path, next: Json): Json {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (Array.isArray(value))
    return value.map((item, index) => (index === head ? replaced(item, rest, next) : item));
  const object = value as Record<string, Json>;
  return { ...object, [head as string]: replaced(object[head as string] as Json, rest, next) };
}

/** Values of another JSON type than `value`'s, none of them null (which some fields take). */
function otherTypes(value: Json): fc.Arbitrary<Json> {
  const kinds: Record<string, fc.Arbitrary<Json>> = {
    string: fc.string({ maxLength: 20 }),
    number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    boolean: fc.boolean(),
    array: fc.array(fc.array(fc.integer(), { maxLength: 2 }), { minLength: 1, maxLength: 3 }),
    object: fc.constant({ unexpected: [1] }),
  };
  const kind = Array.isArray(value) ? 'array' : typeof value;
  return fc.oneof(
    ...Object.entries(kinds)
      .filter(([name]) => name !== kind)
      .map(([, arbitrary]) => arbitrary),
  );
}

/** The body's JSON text with `key` (which JSON.parse would make an own property) first in the object at `path`. */
function withRawKey(body: Json, path: Path, key: string): string {
  const placeholder = 'placeholder-of-a-raw-key';
  const object = { [placeholder]: { polluted: true }, ...(at(body, path) as Record<string, Json>) };
  return JSON.stringify(replaced(body, path, object)).replace(
    JSON.stringify(placeholder),
    JSON.stringify(key),
  );
}

describe('hostile input on every keyed route', () => {
  it('refuses each body broken as a whole: not JSON, cut short, not UTF-8, an array, too large', async () => {
    for (const request of withBody()) {
      const json = JSON.stringify(bodyOf(request));
      const cases: Hostile[] = [
        base(request, 'not JSON', 'merchantId=1'),
        base(request, 'cut short', json.slice(0, -1)),
        base(request, 'an array', `[${json}]`),
        base(request, 'a string', JSON.stringify(json)),
        base(request, 'null', 'null'),
        base(
          request,
          'bytes that are not UTF-8',
          Uint8Array.from([...Buffer.from(json.slice(0, -1)), 0xff, 0xfe, 0x7d]),
        ),
        base(request, 'a lone surrogate', `${json.slice(0, -1)},"zz":"\\ud800"}`),
        base(request, 'a body of 1 MB', `${json.slice(0, -1)},"padding":"${'x'.repeat(1024 * 1024)}"}`),
        base(request, 'keys repeated a million times', `{${'"a":1,'.repeat(40_000)}"a":1}`),
        base(request, 'nested 10,000 deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`),
      ];
      for (const hostile of cases) expectRefused(await send(hostile), hostile.label);
    }
  });

  it('refuses bodies built to be costly to check with one short 400 on every body route', async () => {
    // Keys short enough that 28,000 of them fit under the 256 KB body limit.
    const manyKeys = (count: number, value: Json) =>
      Object.fromEntries(Array.from({ length: count }, (_, index) => [index.toString(36), value]));
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    for (const request of [...withBody(), ...publicRequests]) {
      const body = bodyOf(request) as Record<string, Json>;
      const cases: Hostile[] = [
        base(request, '28,000 distinct unknown keys', JSON.stringify(manyKeys(28_000, 1))),
        base(
          request,
          '28,000 bad metadata entries',
          JSON.stringify({ ...body, metadata: manyKeys(28_000, 1) }),
        ),
        base(request, 'a 60,000-item array', JSON.stringify({ ...body, lineItems: Array(60_000).fill(1) })),
        base(request, 'nested 5,000 deep', `${JSON.stringify(body).slice(0, -1)},"deep":${nested(5_000)}}`),
      ];
      for (const hostile of cases) {
        const result = await send(hostile);
        expectRefused(result, hostile.label);
        const size = JSON.stringify(result.body).length;
        expect({ label: hostile.label, status: result.status, bounded: size < 16_384 }).toEqual({
          label: hostile.label,
          status: 400,
          bounded: true,
        });
      }
    }
  });

  it('names the object of too many keys, lists at most 100 problems and counts them all', async () => {
    const [pay] = publicRequests;
    const create = recorded.find((request) => request.route.operationId === 'createInvoice');
    if (pay === undefined || create === undefined) throw new Error('createInvoice not recorded');
    const keys = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, 1]));
    const crowded = await send(base(pay, '2,000 keys', JSON.stringify(keys(2_000))));
    expect(crowded.body).toMatchObject({
      error: {
        code: 'validation_error',
        details: [{ path: 'body', message: 'must have at most 256 keys.' }],
      },
    });
    const metadata = await send(
      base(
        create,
        'metadata of 300 keys',
        JSON.stringify({ ...(bodyOf(create) as object), metadata: keys(300) }),
      ),
    );
    expect(metadata.body).toMatchObject({
      error: { details: [{ path: 'metadata', message: 'must have at most 256 keys.' }] },
    });
    // 250 unknown fields pass the key limit: each is a problem, the first 100 listed.
    const unknown = await send(base(pay, '250 unknown fields', JSON.stringify(keys(250))));
    const error = (unknown.body as { error: { message: string; details: { path: string }[] } }).error;
    expect(error.details).toHaveLength(100);
    expect(error.details[0]).toEqual({ path: 'slug', message: 'slug is required.' });
    expect(error.message).toMatch(/: 25[0-9] problems, the first 100 listed\.$/);
  });

  it('refuses a body sent as anything but application/json in UTF-8 with 415', async () => {
    for (const request of [...withBody(), ...publicRequests]) {
      const json = JSON.stringify(bodyOf(request));
      for (const contentType of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        undefined,
      ]) {
        const url = new URL(request.path, t.runtime.baseUrl);
        const response = await fetch(url, {
          method: request.method,
          headers: {
            Authorization: `Bearer ${t.runtime.apiKey}`,
            'Idempotency-Key': newKey(),
            ...(contentType === undefined ? {} : { 'Content-Type': contentType }),
          },
          // A Blob of no type sends no Content-Type header at all.
          body: contentType === undefined ? new Blob([json]) : json,
        });
        const label = `${request.route.operationId} as ${contentType ?? 'no Content-Type'}`;
        const body = (await response.json()) as { error?: { code?: string; message?: string } };
        expect({ label, status: response.status, code: body.error?.code }).toEqual({
          label,
          status: 415,
          code: 'unsupported_media_type',
        });
        if (contentType?.includes('charset') === true)
          expect(body.error?.message, label).toContain('charset=utf-8');
      }
      const charset = await fetch(new URL('/pay/invoice', t.runtime.baseUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ slug: 'no-such-slug' }),
      });
      expect(charset.status).not.toBe(415);
    }
  });

  it('refuses a query parameter given twice, naming it', async () => {
    const lists = recorded.filter(
      (request) => request.method === 'GET' && request.options.query?.limit !== undefined,
    );
    expect(lists.length).toBeGreaterThan(5);
    for (const request of lists) {
      const url = new URL(request.path, t.runtime.baseUrl);
      for (const [name, value] of Object.entries(request.options.query ?? {}))
        url.searchParams.set(name, String(value));
      url.searchParams.append('limit', '2');
      const response = await fetch(url, { headers: { Authorization: `Bearer ${t.runtime.apiKey}` } });
      const body = (await response.json()) as { error?: { code?: string; details?: unknown[] } };
      expect({ operation: request.route.operationId, status: response.status, body }).toMatchObject({
        operation: request.route.operationId,
        status: 400,
        body: {
          error: { code: 'validation_error', details: [{ path: 'limit', message: 'must be given once.' }] },
        },
      });
    }
  });

  it('refuses a merchantId given twice 400 naming it, whichever value comes first', async () => {
    const scoped = recorded.filter(
      (request) => request.method === 'GET' && request.options.query?.merchantId !== undefined,
    );
    expect(scoped.length).toBeGreaterThan(5);
    // Well-formed and not the key's: alone, it would be a 403. No merchant is made: the table stays as it was.
    const other = { merchantId: 'mer_01h455vb4pex5vsknk084sn02r' };
    for (const request of scoped) {
      for (const values of [
        [t.runtime.merchantId, other.merchantId],
        [other.merchantId, t.runtime.merchantId],
      ]) {
        const url = new URL(request.path, t.runtime.baseUrl);
        for (const [name, value] of Object.entries(request.options.query ?? {}))
          if (name !== 'merchantId') url.searchParams.set(name, String(value));
        for (const value of values) url.searchParams.append('merchantId', value);
        const response = await fetch(url, { headers: { Authorization: `Bearer ${t.runtime.apiKey}` } });
        const body = (await response.json()) as { error?: { code?: string; details?: unknown[] } };
        const label = `${request.route.operationId} ${values.join(', ')}`;
        expect({ label, status: response.status, body }).toMatchObject({
          label,
          status: 400,
          body: {
            error: {
              code: 'validation_error',
              details: [{ path: 'merchantId', message: 'must be given once.' }],
            },
          },
        });
      }
    }
  });

  it('refuses prototype keys at every depth of every body', async () => {
    for (const request of withBody()) {
      const body = bodyOf(request);
      for (const path of objectPathsOf(body)) {
        for (const key of ['__proto__', 'constructor', 'prototype']) {
          const hostile = base(request, `${key} at /${path.join('/')}`, withRawKey(body, path, key));
          expectRefused(await send(hostile), hostile.label);
        }
      }
    }
  });

  it('refuses every required field left out and every field of the wrong type', async () => {
    for (const request of withBody()) {
      const body = bodyOf(request) as Record<string, Json>;
      const schema = request.route.request.body;
      const required =
        schema === undefined ? [] : ((z.toJSONSchema(schema, { io: 'input' }).required ?? []) as string[]);
      for (const field of required) {
        const { [field]: _left, ...rest } = body;
        expectRefused(
          await send(base(request, `without ${field}`, JSON.stringify(rest))),
          `${request.route.operationId} without ${field}`,
        );
      }
    }
    const requests = withBody();
    await assertProperty(
      fc.asyncProperty(
        fc.integer({ min: 0, max: requests.length - 1 }).chain((index) => {
          const request = requests[index] as RecordedRequest;
          const body = bodyOf(request);
          return fc
            .constantFrom(...pathsOf(body))
            .chain((path) => otherTypes(at(body, path)).map((value) => ({ request, path, value })));
        }),
        async ({ request, path, value }) => {
          const body = JSON.stringify(replaced(bodyOf(request), path, value));
          const hostile = base(request, `/${path.join('/')} = ${JSON.stringify(value)}`, body);
          expectRefused(await send(hostile), hostile.label);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses strings far past any limit, unknown fields, and malformed or foreign ids in paths', async () => {
    for (const request of withBody()) {
      const body = bodyOf(request);
      for (const path of pathsOf(body).filter((each) => typeof at(body, each) === 'string')) {
        const huge = JSON.stringify(replaced(body, path, 'x'.repeat(20_000)));
        expectRefused(
          await send(base(request, `/${path.join('/')} of 20,000 characters`, huge)),
          request.route.operationId,
        );
      }
      const unknown = JSON.stringify({ ...(body as object), unexpectedField: 1 });
      expectRefused(await send(base(request, 'an unknown field', unknown)), request.route.operationId);
    }
    for (const request of recorded) {
      const ids = request.path.match(/[a-z]+_[0-7][0-9a-hjkmnp-tv-z]{25}/g) ?? [];
      for (const id of ids) {
        const prefix = id.slice(0, id.indexOf('_'));
        for (const malformed of [
          `${prefix}_x`,
          'x',
          `${prefix}_${'z'.repeat(26)}`,
          encodeURIComponent('../..'),
          '%00',
        ]) {
          const hostile = {
            ...base(
              request,
              `${id} as ${malformed}`,
              request.options.body === undefined ? undefined : JSON.stringify(request.options.body),
            ),
            path: request.path.replace(id, malformed),
          };
          expectRefused(await send(hostile), hostile.label);
        }
      }
    }
  });

  it('refuses bad list parameters and tampered cursors', async () => {
    const lists = recorded.filter(
      (request) => request.method === 'GET' && request.options.query?.limit !== undefined,
    );
    expect(lists.length).toBeGreaterThan(5);
    for (const request of lists) {
      const query = request.options.query ?? {};
      for (const limit of ['0', '101', '-1', '1.5', '1e3', 'ten', '']) {
        expectRefused(
          await send({ ...base(request, `limit=${limit}`), query: { ...query, limit } }),
          `${request.route.operationId} limit=${limit}`,
        );
      }
      expectRefused(
        await send({ ...base(request, 'unknown parameter'), query: { ...query, unexpected: 1 } }),
        `${request.route.operationId} unknown parameter`,
      );
      const cursor = (request.result.body as { page?: { nextCursor?: string } }).page?.nextCursor;
      if (cursor === undefined) continue;
      const flipped = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
      for (const tampered of [flipped, `${cursor}x`, cursor.split('.')[0] ?? '', 'not-a-cursor', '.']) {
        expectRefused(
          await send({ ...base(request, 'a tampered cursor'), query: { ...query, cursor: tampered } }),
          `${request.route.operationId} cursor`,
        );
      }
    }
  });

  it('refuses a sandbox simulateFailures of the wrong type, below 0, above 50 or with a fraction', async () => {
    const update = recorded.find((request) => request.route.operationId === 'updateWebhookEndpoint');
    expect(update).toBeDefined();
    if (update === undefined) return;
    // Raw JSON text: 1e400 parses to Infinity, which no JavaScript literal writes back.
    for (const value of [
      '"3"',
      'true',
      'null',
      '[3]',
      '{"n":3}',
      '-1',
      '51',
      '9007199254740993',
      '1.5',
      '1e400',
    ]) {
      const body = `{"simulateFailures":${value}}`;
      const result = await send(base(update, `simulateFailures ${body}`, body));
      expectRefused(result, body);
      expect({ body, status: result.status }).toEqual({ body, status: 400 });
      const { details } = (result.body as { error: { details: { path: string }[] } }).error;
      expect({ body, paths: [...new Set(details.map((detail) => detail.path))] }).toEqual({
        body,
        paths: ['simulateFailures'],
      });
    }
  });

  it('leaves the table exactly as it was', async () => {
    expect(await t.scanTable()).toEqual(before);
  });
});
