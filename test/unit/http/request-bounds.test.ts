import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { ErrorDetail } from '../../../functions/errors/error-code';
import { maxListedDetails } from '../../../functions/errors/validation-answer';
import type { ApiState } from '../../../functions/http/api-request';
import { ApiError, ValidationError } from '../../../functions/http/errors';
import { crowdedObjectPath, jsonBody, maxKeysPerObject } from '../../../functions/http/json-body';
import { checkInput, repeatedParameters } from '../../../functions/http/validation';
import type { RouteDefinition } from '../../../functions/route-definition';
import { routes } from '../../../functions/routes';

const detail = (index: number): ErrorDetail => ({
  path: `k${index}`,
  message: `k${index} is not a known field.`,
});
const keys = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, 1]));

describe('ValidationError', () => {
  it('lists up to 100 problems as they are', () => {
    const details = Array.from({ length: maxListedDetails }, (_, index) => detail(index));
    const error = new ValidationError(details);
    expect([error.details, error.message]).toEqual([details, 'The request is not valid.']);
  });

  it('lists the first 100 of more, and counts them all in its message', () => {
    const details = Array.from({ length: 28_003 }, (_, index) => detail(index));
    const error = new ValidationError(details);
    expect(error.details).toEqual(details.slice(0, 100));
    expect(error.message).toBe('The request is not valid: 28003 problems, the first 100 listed.');
  });
});

describe('checkInput on a body of many problems', () => {
  it('lists each distinct problem once, in the order found', () => {
    const checked = checkInput(routes.createInvoice, {}, { ...keys(5_000), k0: 1 });
    if (checked.ok) throw new Error('expected problems');
    const paths = checked.details.map((each) => each.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.filter((path) => path.startsWith('k'))).toHaveLength(5_000);
  });
});

describe('repeatedParameters', () => {
  it('names each query parameter given more than once', () => {
    expect(repeatedParameters(null)).toEqual([]);
    expect(repeatedParameters({ merchantId: ['m'], limit: ['1', '2'], cursor: ['a', 'a'] })).toEqual([
      { path: 'limit', message: 'must be given once.' },
      { path: 'cursor', message: 'must be given once.' },
    ]);
  });
});

describe('crowdedObjectPath', () => {
  const nested = (depth: number, inner: unknown): unknown => {
    let value = inner;
    for (let level = 0; level < depth; level++) value = { a: value };
    return value;
  };

  it('passes objects of up to the limit, at any depth', () => {
    expect(crowdedObjectPath(keys(maxKeysPerObject), maxKeysPerObject)).toBeUndefined();
    expect(
      crowdedObjectPath([keys(maxKeysPerObject), { a: keys(maxKeysPerObject) }], maxKeysPerObject),
    ).toBeUndefined();
    expect(crowdedObjectPath(Array(60_000).fill(keys(3)), maxKeysPerObject)).toBeUndefined();
  });

  it('names the first object over the limit in document order, the root as []', () => {
    expect(crowdedObjectPath(keys(maxKeysPerObject + 1), maxKeysPerObject)).toEqual([]);
    const body = { lineItems: [{}, {}, {}, { metadata: keys(300) }], metadata: keys(400) };
    expect(crowdedObjectPath(body, maxKeysPerObject)).toEqual(['lineItems', 3, 'metadata']);
    // An array is a list, not an object of keys: its length is the schema's to bound.
    expect(crowdedObjectPath({ items: Array(1_000).fill(0) }, maxKeysPerObject)).toBeUndefined();
  });

  it('walks 5,000-deep nesting without running out of stack', () => {
    expect(crowdedObjectPath(nested(5_000, 1), maxKeysPerObject)).toBeUndefined();
    expect(crowdedObjectPath(nested(5_000, keys(257)), maxKeysPerObject)).toHaveLength(5_000);
  });
});

describe('jsonBody', () => {
  const run = (route: RouteDefinition, body: string | null, headers: Record<string, string>) => {
    const state = { route, rawBody: undefined } as ApiState;
    const request = {
      event: { body, headers, isBase64Encoded: false } as unknown as APIGatewayProxyEvent,
      context: { api: state } as unknown as Context,
    };
    const before = jsonBody().before;
    if (before === undefined) throw new Error('jsonBody has no before step');
    try {
      before(request as never);
      return { rawBody: state.rawBody };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { code: error.code, status: error.status, message: error.message, details: error.details };
    }
  };

  it('reads a body sent as application/json, with parameters and in any case', () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset=UTF-8',
    ]) {
      expect(run(routes.createCustomer, '{"a":1}', { 'content-type': type })).toEqual({ rawBody: { a: 1 } });
    }
    expect(run(routes.createCustomer, '{"a":1}', { 'Content-Type': 'application/json' })).toEqual({
      rawBody: { a: 1 },
    });
  });

  it('refuses a body of any other media type, or of none, with 415', () => {
    for (const headers of [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'application/jsonp' },
      { 'content-type': 'multipart/form-data; boundary=x' },
      {},
    ]) {
      expect(run(routes.createCustomer, '{"a":1}', headers)).toMatchObject({
        code: 'unsupported_media_type',
        status: 415,
      });
    }
  });

  it('reads a body whose charset is UTF-8, in any case, quoted or not, or that names none', () => {
    for (const type of [
      'application/json; charset=UTF-8',
      'application/json; charset="utf-8"',
      'application/json;charset=utf8',
      'application/json; Charset=UTF8; foo=bar',
      'application/json; foo="a;b"; charset=utf-8',
      'application/json;',
    ]) {
      expect(run(routes.createCustomer, '{"a":1}', { 'content-type': type }), type).toEqual({
        rawBody: { a: 1 },
      });
    }
  });

  it('refuses a body in any other charset with 415 naming UTF-8, and a malformed parameter list', () => {
    for (const type of [
      'application/json; charset=latin1',
      'application/json; charset="ISO-8859-1"',
      'application/json; charset=utf-16',
      'application/json; charset=utf-8; charset=latin1',
      'application/json; charset="utf-8"x',
    ]) {
      const answer = run(routes.createCustomer, '{"a":1}', { 'content-type': type });
      expect({ type, ...answer }).toMatchObject({ type, code: 'unsupported_media_type', status: 415 });
    }
    const latin1 = run(routes.createCustomer, '{"a":1}', {
      'content-type': 'application/json; charset=latin1',
    });
    expect(latin1).toMatchObject({ message: expect.stringContaining('charset=utf-8') });
    for (const type of ['application/json; charset', 'application/json; =utf-8', 'application/json; a b']) {
      expect(run(routes.createCustomer, '{"a":1}', { 'content-type': type }), type).toMatchObject({
        code: 'unsupported_media_type',
        message: 'The request body must be sent with Content-Type: application/json.',
      });
    }
  });

  it('takes a request without a body whatever its headers say, and a route without a body as before', () => {
    expect(run(routes.rotateWebhookSecret, null, {})).toEqual({ rawBody: undefined });
    expect(run(routes.listCustomers, '{"a":1}', { 'content-type': 'text/plain' })).toEqual({
      rawBody: { a: 1 },
    });
  });

  it('refuses an object of too many keys before any schema runs, naming it', () => {
    expect(
      run(routes.createInvoice, JSON.stringify({ metadata: keys(300) }), {
        'content-type': 'application/json',
      }),
    ).toEqual({
      code: 'validation_error',
      status: 400,
      message: 'The request is not valid.',
      details: [{ path: 'metadata', message: 'must have at most 256 keys.' }],
    });
    expect(
      run(routes.payInvoice, JSON.stringify(keys(2_000)), { 'content-type': 'application/json' }),
    ).toMatchObject({
      details: [{ path: 'body', message: 'must have at most 256 keys.' }],
    });
  });
});
