import type { RouteDefinition } from '../../functions/route-definition';
import { routeList, routesOfStage } from '../../functions/routes';
import { matchRoute } from '../../tools/local/route-matcher';
import type { HttpsReceiver } from './https-receiver';
import type { ApiClient, ApiResult, RequestOptions, TestRuntime } from './local-runtime';
import { measureRouteRoundTrips } from './route-round-trips';

/** One successful request of a route, as its happy path sent it. */
export interface RecordedRequest {
  readonly route: RouteDefinition;
  readonly method: string;
  readonly path: string;
  readonly options: RequestOptions;
  readonly result: ApiResult;
}

/** Ids of the service's resources as they appear in bodies and paths. */
export const resourceIdPattern =
  /\b(?:inv|cust|prod|price|pmt|refund|whk|whkdel|po|evt|psn)_[0-7][0-9a-hjkmnp-tv-z]{25}\b/g;

/**
 * Calls every keyed route of the sandbox stage on its happy path (`measureRouteRoundTrips`, with
 * real resources) and keeps the first successful request of each, and every id the answers showed.
 * A new route is recorded as soon as the round-trip test covers it.
 */
export async function recordKeyedRequests(
  t: TestRuntime,
  receiver: HttpsReceiver,
): Promise<{ requests: Map<string, RecordedRequest>; shownIds: Set<string> }> {
  const routes = routesOfStage(routeList, 'sandbox');
  const requests = new Map<string, RecordedRequest>();
  const shownIds = new Set<string>();
  const recording: ApiClient = async (method, path, options = {}) => {
    const result = await t.api(method, path, options);
    const match = matchRoute(routes, method, new URL(path, 'http://x').pathname);
    if (match !== undefined && !requests.has(match.route.operationId) && result.status < 300) {
      requests.set(match.route.operationId, { route: match.route, method, path, options, result });
    }
    for (const id of JSON.stringify(result.body ?? '').match(resourceIdPattern) ?? []) shownIds.add(id);
    return result;
  };
  await measureRouteRoundTrips({ ...t, api: recording }, receiver);
  return { requests, shownIds };
}
