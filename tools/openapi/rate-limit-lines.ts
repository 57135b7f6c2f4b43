import { Stage } from '../../functions/config';
import { isPublic, type RouteDefinition } from '../../functions/route-definition';
import { publicRateLimit } from '../../lib/constructs/public-rate-limit';
import { type StageSettings, settingsOf } from '../../lib/constructs/stage-settings';
import { committedStageConfig } from '../../lib/stage-config';

/**
 * One value per environment, or the one value when they agree: "20" or "100 in sandbox, 1000 in
 * production".
 */
function perStage(value: (settings: StageSettings) => string): string {
  const values = Object.values(Stage).map((stage) => ({
    stage,
    text: value(settingsOf(stage, committedStageConfig(stage))),
  }));
  const distinct = new Set(values.map(({ text }) => text));
  return distinct.size === 1
    ? [...distinct].join('')
    : values.map(({ stage, text }) => `${text} in ${stage}`).join(', ');
}

/**
 * The limits that can answer a route's 429, as the items of a list nested in its description,
 * with the numbers the stack deploys (docs/decisions/noisy-neighbours.md): the web ACL's
 * per-address limit and the route's own throttle for a pay route; the per-key ceiling and the
 * stage throttle for every other; then the route's own limit, if it has one.
 */
export function rateLimitLines(route: RouteDefinition): string[] {
  const lines = isPublic(route)
    ? [
        `requests from one address to the pay page and its routes: more than ${publicRateLimit.requests} per ` +
          `${publicRateLimit.windowSeconds} seconds (\`Retry-After: ${publicRateLimit.windowSeconds}\`).`,
        'requests to this route from all payers together: more than ' +
          `${perStage(({ publicRouteThrottle: { rateLimit, burstLimit } }) => `${rateLimit} a second (bursts of ${burstLimit})`)} ` +
          '(`Retry-After: 1`).',
      ]
    : [
        'requests with this API key, counted over every route that takes a key: more than ' +
          `${perStage(({ apiKeyCeiling: { requests, windowSeconds } }) => `${requests} per ${windowSeconds} seconds`)} ` +
          '(`Retry-After` is the window). The rate is checked about every 10 seconds, so the refusals start and end ' +
          'up to that much after the count crosses the limit.',
        'requests to the whole environment from every merchant together: more than ' +
          `${perStage(({ throttle: { rateLimit, burstLimit } }) => `${rateLimit} a second (bursts of ${burstLimit})`)} ` +
          '(`Retry-After: 1`).',
      ];
  const limits = route.ownRateLimit === undefined ? lines : [...lines, route.ownRateLimit];
  return limits.map((limit) => `  - ${limit}`);
}
