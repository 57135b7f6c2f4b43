import { describe, expect, it } from 'vitest';
import { routeList } from '../../../functions/routes';
import { matchRoute } from '../../../tools/local/route-matcher';

describe('matchRoute', () => {
  it('finds every route of the table by its own method and a concrete path', () => {
    for (const route of routeList) {
      const path = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => `${name}-value`);
      const match = matchRoute(routeList, route.method, path);
      expect(match?.route.operationId).toBe(route.operationId);
    }
  });

  it('prefers a literal segment over a path parameter and decodes parameters', () => {
    const match = matchRoute(routeList, 'GET', '/catalog/products/prod%5F1');
    expect(match?.route.operationId).toBe('getProduct');
    expect(match?.params).toEqual({ productId: 'prod_1' });
  });

  it('finds nothing for an unknown path or method', () => {
    expect(matchRoute(routeList, 'GET', '/catalog')).toBeUndefined();
    expect(matchRoute(routeList, 'DELETE', '/catalog/products')).toBeUndefined();
  });
});
