import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { z } from 'zod';
import type { RouteDefinition } from '../routes';
import { apiState } from './api-request';
import { type ErrorDetail, NotFoundError, ValidationError } from './errors';

/** One `details` entry per problem; an unknown field is named by its own path. */
export function detailsOf(error: z.ZodError, location: string): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...base, key].join('.'), message: 'Unknown field.' }));
    }
    return [{ path: base.length === 0 ? location : base.join('.'), message: issue.message }];
  });
}

/**
 * Validates path, query and body against the route's strict schemas. A malformed id in the path is
 * a 404 (it can't name anything); query and body problems are one 400 listing every problem.
 */
export function validation(
  route: RouteDefinition,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const { params, query, body } = route.request;
  return {
    before: (request) => {
      const state = apiState(request.context);
      if (params !== undefined) {
        const parsed = params.safeParse(request.event.pathParameters ?? {});
        if (!parsed.success) throw new NotFoundError();
        state.params = parsed.data;
      }
      const details: ErrorDetail[] = [];
      if (query !== undefined) {
        const parsed = query.safeParse(request.event.queryStringParameters ?? {});
        if (parsed.success) state.query = parsed.data;
        else details.push(...detailsOf(parsed.error, 'query'));
      }
      if (body !== undefined) {
        const parsed = body.safeParse(state.rawBody);
        if (parsed.success) state.body = parsed.data;
        else details.push(...detailsOf(parsed.error, 'body'));
      }
      if (details.length > 0) throw new ValidationError(details);
    },
  };
}
