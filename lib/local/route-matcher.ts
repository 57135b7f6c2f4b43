import type { RouteDefinition } from '../../functions/route-definition';

export interface RouteMatch {
  readonly route: RouteDefinition;
  readonly params: Record<string, string>;
}

/**
 * Finds the route for a method and path the way API Gateway does: literal segments beat
 * `{param}` segments, and path parameters arrive URL-decoded.
 */
export function matchRoute(
  routes: readonly RouteDefinition[],
  method: string,
  path: string,
): RouteMatch | undefined {
  const segments = path.split('/').filter((segment) => segment !== '');
  let best: { match: RouteMatch; literals: number } | undefined;
  for (const route of routes) {
    if (route.method !== method) continue;
    const template = route.path.split('/').filter((segment) => segment !== '');
    if (template.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    const matches = template.every((part, index) => {
      const segment = segments[index] as string;
      if (part.startsWith('{') && part.endsWith('}')) {
        params[part.slice(1, -1)] = safeDecode(segment);
        return true;
      }
      literals += 1;
      return part === segment;
    });
    if (matches && (best === undefined || literals > best.literals))
      best = { match: { route, params }, literals };
  }
  return best?.match;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
