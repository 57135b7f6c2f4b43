import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import * as z from 'zod/mini';
import type { ErrorDetail } from '../errors/error-code';
import type { RouteDefinition } from '../route-definition';
import { apiState } from './api-request';
import { NotFoundError, ValidationError } from './errors';
import { issueMessage, ValidationMessage } from './validation-messages';

/**
 * One `details` entry per problem: an unknown field is named by its own path, and a value that
 * breaks two checks with the same wording (an integer past both the safe range and the maximum)
 * is listed once. A Set keeps this linear in the number of problems, however many a body holds.
 */
export function detailsOf(issues: readonly z.core.$ZodIssue[], location: string): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  const add = (path: string, message: string) => {
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    details.push({ path, message });
  };
  for (const issue of issues) {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...base, key].join('.'), ValidationMessage.unknownField(key));
    } else {
      add(base.length === 0 ? location : base.join('.'), issue.message);
    }
  }
  return details;
}

/** A request's parsed query and body, or every problem of both. */
export type CheckedInput =
  | { readonly ok: true; readonly query: unknown; readonly body: unknown }
  | { readonly ok: false; readonly details: ErrorDetail[] };

/** Checks query and body against the route's strict schemas, with our wording for every problem. */
export function checkInput(route: RouteDefinition, query: unknown, body: unknown): CheckedInput {
  const details: ErrorDetail[] = [];
  const parse = (schema: z.ZodMiniType | undefined, value: unknown, location: string) => {
    if (schema === undefined) return undefined;
    const parsed = z.safeParse(schema, value, { error: (issue) => issueMessage(issue, location) });
    if (parsed.success) return parsed.data;
    details.push(...detailsOf(parsed.error.issues, location));
    return undefined;
  };
  const parsedQuery = parse(route.request.query, query, 'query');
  const parsedBody = parse(route.request.body, body, 'body');
  return details.length > 0 ? { ok: false, details } : { ok: true, query: parsedQuery, body: parsedBody };
}

/**
 * Validates path, query and body against the route's strict schemas. A malformed id in the path is
 * a 404 (it can't name anything); query and body problems are one 400 listing every problem.
 */
export function validation(
  route: RouteDefinition,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const { params } = route.request;
  return {
    before: (request) => {
      const state = apiState(request.context);
      if (params !== undefined) {
        const parsed = z.safeParse(params, request.event.pathParameters ?? {});
        if (!parsed.success) throw new NotFoundError();
        state.params = parsed.data;
      }
      const repeated = repeatedParameters(request.event.multiValueQueryStringParameters);
      const checked = checkInput(route, request.event.queryStringParameters ?? {}, state.rawBody);
      if (repeated.length > 0 || !checked.ok)
        throw new ValidationError([...repeated, ...(checked.ok ? [] : checked.details)]);
      state.query = checked.query;
      state.body = checked.body;
    },
  };
}

/**
 * Every query parameter of this API takes one value: one given twice is a problem named under it,
 * rather than the last value silently winning.
 */
export function repeatedParameters(
  multiValue: APIGatewayProxyEvent['multiValueQueryStringParameters'],
): ErrorDetail[] {
  return Object.entries(multiValue ?? {})
    .filter(([, values]) => (values?.length ?? 0) > 1)
    .map(([name]) => ({ path: name, message: ValidationMessage.givenOnce }));
}
