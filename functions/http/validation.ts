import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import * as z from 'zod/mini';
import type { RouteDefinition } from '../route-definition';
import { apiState } from './api-request';
import { type ErrorDetail, NotFoundError, ValidationError } from './errors';
import { issueMessage, ValidationMessage } from './validation-messages';

/**
 * One `details` entry per problem: an unknown field is named by its own path, and a value that
 * breaks two checks with the same wording (an integer past both the safe range and the maximum)
 * is listed once.
 */
export function detailsOf(issues: readonly z.core.$ZodIssue[], location: string): ErrorDetail[] {
  const details = issues.flatMap((issue) => {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: [...base, key].join('.'),
        message: ValidationMessage.unknownField(key),
      }));
    }
    return [{ path: base.length === 0 ? location : base.join('.'), message: issue.message }];
  });
  return details.filter(
    (detail, index) =>
      details.findIndex((other) => other.path === detail.path && other.message === detail.message) === index,
  );
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
      const checked = checkInput(route, request.event.queryStringParameters ?? {}, state.rawBody);
      if (!checked.ok) throw new ValidationError(checked.details);
      state.query = checked.query;
      state.body = checked.body;
    },
  };
}
