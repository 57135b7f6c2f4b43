import { describe, expect, it } from 'vitest';
import { type RouteDefinition, routeList, routesOfStage } from '../../functions/routes';

describe('routesOfStage', () => {
  const everywhere = routeList[0] as RouteDefinition;
  const sandboxOnly: RouteDefinition = { ...everywhere, operationId: 'sandboxOnly', stages: ['sandbox'] };

  it('serves a route without stages on every stage', () => {
    expect(routesOfStage([everywhere], 'sandbox')).toEqual([everywhere]);
    expect(routesOfStage([everywhere], 'production')).toEqual([everywhere]);
  });

  it('leaves a sandbox-only route out of production', () => {
    expect(routesOfStage([everywhere, sandboxOnly], 'sandbox')).toEqual([everywhere, sandboxOnly]);
    expect(routesOfStage([everywhere, sandboxOnly], 'production')).toEqual([everywhere]);
  });

  it('keeps operation ids and method + path pairs unique across the table', () => {
    const ids = routeList.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const endpoints = routeList.map((route) => `${route.method} ${route.path}`);
    expect(new Set(endpoints).size).toBe(endpoints.length);
  });
});
