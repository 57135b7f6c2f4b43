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
  const isParam = (part: string) => part.startsWith('{') && part.endsWith('}');
  let best: { match: RouteMatch; literals: number } | undefined;
  for (const route of routes) {
    const template = route.path.split('/').filter((segment) => segment !== '');
    if (route.method !== method || template.length !== segments.length) continue;
    if (!template.every((part, index) => isParam(part) || part === segments[index])) continue;
    const literals = template.filter((part) => !isParam(part)).length;
    const params = Object.fromEntries(
      template.flatMap((part, index) =>
        isParam(part) ? [[part.slice(1, -1), safeDecode(`${segments[index]}`)]] : [],
      ),
    );
    if (best === undefined || literals > best.literals) best = { match: { route, params }, literals };
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
