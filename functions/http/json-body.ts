import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { apiState } from './api-request';
import { ApiError, ValidationError } from './errors';
import { headerValue } from './header-value';
import { jsonContentTypeProblem } from './json-content-type';

/** Bodies over 256 KB are refused before parsing (docs/decisions/request-bodies.md). */
export const maxBodyBytes = 256 * 1024;

/**
 * No object of a request body may hold more keys than this, checked before any schema runs: the
 * largest object a route accepts (metadata) has 50, and a body of thousands of unknown keys would
 * otherwise cost a problem each (docs/decisions/validation-cost.md).
 */
export const maxKeysPerObject = 256;

/**
 * Parses the JSON body of a request that sends one: it must say it is `application/json` in UTF-8,
 * its only charset (415 otherwise), be at most 256 KB (413), parse (400 invalid_json) and keep every object within
 * `maxKeysPerObject` keys (400 validation_error naming the object).
 */
export function jsonBody(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const state = apiState(request.context);
      const { body, isBase64Encoded, headers } = request.event;
      if (body === null || body === undefined || body === '') return;
      // A route that takes no body ignores one, whatever its headers say.
      const problem =
        state.route.request.body === undefined
          ? undefined
          : jsonContentTypeProblem(headerValue(headers, 'content-type'));
      if (problem !== undefined) throw new ApiError('unsupported_media_type', problem);
      const bytes = Buffer.from(body, isBase64Encoded ? 'base64' : 'utf8');
      state.bodyBytes = bytes;
      const text = isBase64Encoded ? bytes.toString('utf8') : body;
      if (Buffer.byteLength(text, 'utf8') > maxBodyBytes) {
        throw new ApiError('payload_too_large', `The request body is larger than ${maxBodyBytes} bytes.`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new ApiError('invalid_json', 'The request body is not valid JSON.', { cause: error });
      }
      const crowded = crowdedObjectPath(parsed, maxKeysPerObject);
      if (crowded !== undefined) {
        throw new ValidationError([
          {
            path: crowded.length === 0 ? 'body' : crowded.join('.'),
            message: `must have at most ${maxKeysPerObject} keys.`,
          },
        ]);
      }
      state.rawBody = parsed;
    },
  };
}

/** A value of the body and where it sits: its key and its parent's place, so no path is copied per value. */
interface Place {
  readonly value: unknown;
  readonly key: string | number | undefined;
  readonly parent: Place | undefined;
}

/**
 * The path of the first object (depth first, in document order) with more than `maxKeys` keys, or
 * undefined. Walks with a stack of its own and builds only the path it returns, so a body nested
 * thousands deep costs its size and no call depth.
 */
export function crowdedObjectPath(value: unknown, maxKeys: number): (string | number)[] | undefined {
  const stack: Place[] = [{ value, key: undefined, parent: undefined }];
  for (let place = stack.pop(); place !== undefined; place = stack.pop()) {
    const item = place.value;
    if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--) pushObject(stack, item[index], index, place);
    } else if (item !== null && typeof item === 'object') {
      const keys = Object.keys(item);
      if (keys.length > maxKeys) return pathOf(place);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string;
        pushObject(stack, (item as Record<string, unknown>)[key], key, place);
      }
    }
  }
  return undefined;
}

/** Only objects and arrays are walked further: a scalar has no keys. */
function pushObject(stack: Place[], value: unknown, key: string | number, parent: Place) {
  if (value !== null && typeof value === 'object') stack.push({ value, key, parent });
}

function pathOf(place: Place): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Place | undefined = place; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}
